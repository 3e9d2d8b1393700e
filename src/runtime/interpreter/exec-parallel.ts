/**
 * `parallel` (issue #27 §4): `parallel for x in xs limit N { … }`, whose value is the array
 * of each body's value in input order, and `parallel { … }`, whose statements are branches.
 * Both run their branches concurrently through one small pool (`runBranches`).
 *
 * What a branch is given, and why:
 *  - its own step scope, made before any branch starts, in input order: `…/parallel#3/branch#2/1`
 *    is the same step in every run however the branches interleave, so a resumed journaled
 *    run finds the receipts of finished branches and re-runs only unfinished ones;
 *  - its own cancellation, under the caller's: the first failure aborts it, and every tool
 *    handler the branch reaches (directly, through a fn or an agent method, or as a model's
 *    native call) sees its `AbortSignal` abort. Agent methods' `MethodCallState` is shared,
 *    seen through a view that only swaps the signal, so the circuit breaker counts failures
 *    across branches of one method call;
 *  - a `parallel for` branch gets a copy of the frame's variables (its loop variable and
 *    what its body assigns are its own, seen neither by other branches nor after); a
 *    `parallel { }` branch writes the frame itself — the checker holds that two branches
 *    assign different names and read none another assigns (E1201, E1202).
 * After the first failure no new branch starts; the pool waits until the running ones have
 * settled (so nothing of the block runs after it has failed), then raises that failure where
 * the statement is, for `try` to catch. Module `max_concurrency`, idempotency keys and the
 * breaker are the tool pipeline's, shared by every branch of the run.
 */
import type { Expr, Stmt } from "../../syntax/ast";
import type { MethodCallState } from "../tools/tool-invoker-types";
import { errorAt } from "./runtime-errors";
import type { Frame } from "./runtime-context";
import { forItems } from "./statement-helpers";
import { typeName, type Value } from "./values";

type ParallelForExpr = Extract<Expr, { kind: "ParallelFor" }>;
type ParallelStmt = Extract<Stmt, { kind: "Parallel" }>;

/** The limit of a `parallel for` written without `limit`, when the host gives none (`parallel_limit` in luma.config.json). */
export const DEFAULT_PARALLEL_LIMIT = 8;

/** How a branch's statements run: the asynchronous executor's block (handed in, so this file imports no executor). */
export type RunBlock = (stmts: readonly Stmt[], f: Frame) => Promise<Value>;

/** `parallel for x in xs [limit N] { … }`: each body's value, in input order. */
export async function evalParallelFor(
  e: ParallelForExpr, f: Frame, evalValue: (e: Expr, f: Frame) => Value | Promise<Value>, runBlock: RunBlock,
): Promise<Value[]> {
  const loop = e.loop;
  const items = forItems(f.rt, await evalValue(loop.iterable, f), loop.iterable.span);
  const limit = e.limit ? checkedLimit(f, await evalValue(e.limit, f), e.limit) : (f.rt.host.parallelLimit ?? DEFAULT_PARALLEL_LIMIT);
  return runBranches(f, items.length, limit, async (branch, i) => {
    branch.vars = new Map(f.vars);
    branch.vars.set(loop.name, items[i] ?? null);
    return runBlock(loop.body, branch);
  });
}

/** `parallel { … }`: every statement at once; their assignments land in the frame. */
export async function execParallel(s: ParallelStmt, f: Frame, runBlock: RunBlock): Promise<void> {
  await runBranches(f, s.body.length, s.body.length, (branch, i) => runBlock([s.body[i]], branch));
}

function checkedLimit(f: Frame, limit: Value, at: Expr): number {
  if (typeof limit === "number" && Number.isInteger(limit) && limit >= 1) return limit;
  const shown = typeof limit === "number" ? String(limit) : typeName(limit);
  throw errorAt(f.rt.sourceOf, "RUNTIME_ERROR", `'parallel for' needs a limit that is a whole number of at least 1, got ${shown}`, at.span);
}

/**
 * Runs `count` branches, at most `limit` at once, starting them in index order; the values in
 * index order. The first failure aborts the others and is raised once all have settled.
 */
async function runBranches(f: Frame, count: number, limit: number, run: (branch: Frame, i: number) => Promise<Value>): Promise<Value[]> {
  const results = new Array<Value>(count).fill(null);
  if (count === 0) return results;
  const outer = f.signal ?? f.methodCall?.signal;
  const controller = new AbortController();
  const abortFromOutside = () => controller.abort(outer?.reason);
  if (outer?.aborted) abortFromOutside();
  else outer?.addEventListener("abort", abortFromOutside, { once: true });
  const signal = controller.signal;
  const methodCall = f.methodCall && branchCallState(f.methodCall, signal);
  // Every branch's scope now, in input order: step ids do not depend on which finishes first.
  const group = f.scope.child("parallel");
  const scopes = Array.from({ length: count }, () => group.child("branch"));
  let failed = false;
  let failure: unknown;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && !failed) {
      const i = next++;
      const branch: Frame = { ...f, scope: scopes[i], signal, methodCall, returned: false, returnValue: null, jump: undefined };
      try {
        results[i] = await run(branch, i);
      } catch (e) {
        if (!failed) {
          failed = true;
          failure = e;
          controller.abort(e);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  } finally {
    outer?.removeEventListener("abort", abortFromOutside);
  }
  if (failed) throw failure;
  return results;
}

/**
 * The method call's state as a branch sees it: the same object (its breaker's failures and
 * whatever else the call carries are shared by every branch), with the branch's signal.
 */
function branchCallState(state: MethodCallState, signal: AbortSignal): MethodCallState {
  return new Proxy(state, {
    get: (target, key, receiver) => (key === "signal" ? signal : Reflect.get(target, key, receiver)),
    set: (target, key, value) => (key === "signal" ? true : Reflect.set(target, key, value)),
  });
}
