/**
 * The asynchronous statement executor: the same statement semantics as `exec-sync.ts`
 * (see there for statement values and `return`), for statements that may suspend. Each
 * statement the analysis marks as pure is handed to the synchronous executor.
 */
import type { Stmt } from "../../syntax/ast";
import { evalAsync, evalExpr } from "./eval-async";
import { evalSync } from "./eval-sync";
import { execBlockSync, execStmtSync, unknownStatement, whileTurnsSync } from "./exec-sync";
import { assertNever } from "../../syntax/assert-never";
import { runAssert } from "./assert-statement";
import { runScore } from "./score-statement";
import { execParallel } from "./exec-parallel";
import { isRunStop } from "../journal/journal-errors";
import { asLumaError, errorAt, errorValue } from "./runtime-errors";
import { isRunEnding } from "../base/run-ending-error";
import type { Frame } from "./runtime-context";
import { assign, checkStoppedEvery, forItems, loopEnds, WHILE_YIELD_EVERY, writeInto, yieldTurn } from "./statement-helpers";
import { isTruthy, type Value } from "./values";

export async function execBlockAsync(stmts: readonly Stmt[], f: Frame): Promise<Value> {
  const analysis = f.rt.analysis;
  let last: Value = null;
  for (const s of stmts) {
    try {
      last = analysis.stmt(s) ? await execStmtAsync(s, f) : execStmtSync(s, f);
    } catch (e) {
      throw asLumaError(e, f.rt.sourceOf, s.span);
    }
    if (f.returned || f.jump !== undefined) return null;
  }
  return last;
}

/** A block, run synchronously when nothing in it can suspend. */
function block(stmts: readonly Stmt[], f: Frame): Value | Promise<Value> {
  return f.rt.analysis.block(stmts) ? execBlockAsync(stmts, f) : execBlockSync(stmts, f);
}

async function execStmtAsync(s: Stmt, f: Frame): Promise<Value> {
  switch (s.kind) {
    case "Assign":
      assign(f, s, await evalExpr(s.value, f));
      return null;
    case "ExprStmt":
      return evalExpr(s.expr, f);
    case "Assert":
      return runAssert(s, f, (e) => evalExpr(e, f));
    case "Score":
      return runScore(s, f, (e) => evalExpr(e, f));
    case "If":
      if (isTruthy(await evalExpr(s.cond, f))) return block(s.then, f);
      return s.else ? block(s.else, f) : null;
    case "For": {
      const items = forItems(f.rt, await evalExpr(s.iterable, f), s.iterable.span);
      for (let i = 0; i < items.length; i++) {
        checkStoppedEvery(f.rt);
        f.vars.set(s.name, items[i] ?? null);
        const done = block(s.body, f);
        if (done instanceof Promise) await done;
        if (loopEnds(f)) break;
      }
      return null;
    }
    case "AssignInto": {
      const t = s.target;
      const obj = await evalExpr(t.object, f);
      const key = t.kind === "Member" ? t.property : await evalExpr(t.index, f);
      writeInto(f.rt, s, obj, key, await evalExpr(s.value, f));
      return null;
    }
    case "While": {
      // Iterative (no stack growth per turn); see WHILE_YIELD_EVERY for the yield.
      // What may suspend is known before the first turn: a pure condition and body run
      // synchronously, with no promise per turn.
      const condSuspends = f.rt.analysis.expr(s.cond);
      const bodySuspends = f.rt.analysis.block(s.body);
      if (!condSuspends && !bodySuspends) {
        while (!whileTurnsSync(s, f, WHILE_YIELD_EVERY)) await yieldTurn(f);
        return null;
      }
      for (let turn = 1; ; turn++) {
        if (!isTruthy(condSuspends ? await evalAsync(s.cond, f) : evalSync(s.cond, f))) break;
        if (bodySuspends) await execBlockAsync(s.body, f);
        else execBlockSync(s.body, f);
        if (loopEnds(f)) break;
        if (turn % WHILE_YIELD_EVERY === 0) await yieldTurn(f);
      }
      return null;
    }
    case "Return":
      f.returnValue = s.value ? await evalExpr(s.value, f) : null;
      f.returned = true;
      f.returnSpan = s.span;
      return null;
    case "Try":
      try {
        return await block(s.body, f);
      } catch (e) {
        // A closed stdout, a signal, a handler's exit: the program cannot catch the end of its run.
        if (isRunEnding(e)) throw e;
        if (isRunStop(e)) throw e; // a journal stop (pending approval, divergence) is not the program's to catch
        f.vars.set(s.errName, errorValue(asLumaError(e, f.rt.sourceOf, s.span)));
        return block(s.handler, f);
      }
    case "Parallel":
      await execParallel(s, f, execBlockAsync);
      return null;
    // `break` and `continue` never suspend: the synchronous executor runs them.
    case "Break":
    case "Continue":
      return unknownStatement(f, s);
    default:
      return assertNever(s, (node) => unknownStatement(f, node));
  }
}
