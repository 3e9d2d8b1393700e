/**
 * The synchronous statement executor, for statements the analysis marks as unable to
 * suspend — a loop over pure arithmetic runs here without a single promise.
 *
 * Values of statements (what a function returns without `return`, spec §7): a block's value
 * is the value of its last statement; an expression statement's value is its expression's;
 * an `if`'s is the value of the branch taken (`null` when no branch runs); a `try`'s is its
 * body's, or its handler's when an error was caught; an assignment or a loop is `null`.
 * `return` stops every enclosing block of the function (`Frame.returned`); `break` and
 * `continue` stop every block up to the innermost loop (`Frame.jump`), which consumes them.
 * A `while` runs in the asynchronous executor only (it yields to the event loop).
 *
 * Any non-Luma error escaping a statement becomes RUNTIME_ERROR located at that statement.
 */
import type { Span, Stmt } from "../../syntax/ast";
import { assertNever, type UnknownNode } from "../../syntax/assert-never";
import { evalSync } from "./eval-sync";
import { runAssert } from "./assert-statement";
import { runScore } from "./score-statement";
import { isRunStop } from "../journal/journal-errors";
import { asLumaError, errorAt, errorValue } from "./runtime-errors";
import { isRunEnding } from "../base/run-ending-error";
import type { Frame } from "./runtime-context";
import { assign, checkStoppedEvery, forItems, loopEnds, writeInto } from "./statement-helpers";
import { isTruthy, type Value } from "./values";

export function execBlockSync(stmts: readonly Stmt[], f: Frame): Value {
  let last: Value = null;
  for (const s of stmts) {
    try {
      last = execStmtSync(s, f);
    } catch (e) {
      throw asLumaError(e, f.rt.sourceOf, s.span);
    }
    if (f.returned || f.jump !== undefined) return null;
  }
  return last;
}

export function execStmtSync(s: Stmt, f: Frame): Value {
  switch (s.kind) {
    case "Assign":
      assign(f, s, evalSync(s.value, f));
      return null;
    case "ExprStmt":
      return evalSync(s.expr, f);
    case "Assert":
      return runAssert(s, f, (e) => evalSync(e, f));
    case "Score":
      return runScore(s, f, (e) => evalSync(e, f));
    case "If":
      if (isTruthy(evalSync(s.cond, f))) return execBlockSync(s.then, f);
      return s.else ? execBlockSync(s.else, f) : null;
    case "For": {
      const items = forItems(f.rt, evalSync(s.iterable, f), s.iterable.span);
      for (let i = 0; i < items.length; i++) {
        checkStoppedEvery(f.rt);
        f.vars.set(s.name, items[i] ?? null);
        execBlockSync(s.body, f);
        if (loopEnds(f)) break;
      }
      return null;
    }
    case "AssignInto": {
      const t = s.target;
      const obj = evalSync(t.object, f);
      const key = t.kind === "Member" ? t.property : evalSync(t.index, f);
      writeInto(f.rt, s, obj, key, evalSync(s.value, f));
      return null;
    }
    case "Break":
    case "Continue":
      f.jump = s.kind === "Break" ? "break" : "continue";
      return null;
    case "Return":
      f.returnValue = s.value ? evalSync(s.value, f) : null;
      f.returned = true;
      f.returnSpan = s.span;
      return null;
    case "Try":
      try {
        return execBlockSync(s.body, f);
      } catch (e) {
        // A closed stdout, a signal, a handler's exit: the program cannot catch the end of its run.
        if (isRunEnding(e)) throw e;
        if (isRunStop(e)) throw e; // a journal stop (pending approval, divergence) is not the program's to catch
        f.vars.set(s.errName, errorValue(asLumaError(e, f.rt.sourceOf, s.span)));
        return execBlockSync(s.handler, f);
      }
    // A `while` always runs in the asynchronous executor (it yields now and then): never here.
    case "While":
    case "Parallel":
      return unknownStatement(f, s);
    default:
      return assertNever(s, (node) => unknownStatement(f, node));
  }
}

/** The internal error of a statement an executor has no case for: one only the other executor runs, or a kind this version does not know. */
export function unknownStatement(f: Frame, s: UnknownNode): never {
  throw errorAt(f.rt.sourceOf, "RUNTIME_ERROR", `Internal error: unknown statement '${s.kind}'`, s.span as Span);
}

/**
 * Up to `max` turns of a `while` whose condition and body cannot suspend, with no promise
 * in the way; true when the loop ended. The asynchronous executor yields between calls.
 */
export function whileTurnsSync(s: Extract<Stmt, { kind: "While" }>, f: Frame, max: number): boolean {
  for (let turn = 0; turn < max; turn++) {
    if (!isTruthy(evalSync(s.cond, f))) return true;
    execBlockSync(s.body, f);
    if (loopEnds(f)) return true;
  }
  return false;
}
