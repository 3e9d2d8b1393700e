/**
 * The builtins that take a lambda (issue #28 §2): `map`, `filter`, `find`, `any`, `all`,
 * `sort_by`, `group_by`, each written `name(xs, (x) => e)`. The evaluators (eval-sync.ts,
 * calls.ts) apply the lambda to the items in order — `x` bound in the calling frame for
 * the time of the call and restored after, so the body reads the unit's variables as they
 * are and cannot change them (a lambda body is an expression) — and this file says what
 * each builtin makes of the results:
 *
 * - `map`: the results. `filter`: the items whose result is true. `find`: the first item
 *   whose result is true, or null. `any`/`all`: whether some/every result is true (`any` of
 *   nothing is false, `all` of nothing true). `find`, `any` and `all` stop at the first
 *   item that decides: a later item's lambda does not run.
 * - `sort_by`: the items ordered by their results (all numbers or all strings, as `sort`),
 *   stable. `group_by`: an object from each result, as text (`str`), to the items that gave
 *   it, keys in order of first appearance.
 * "True" is what `if` takes as true (the checker holds the lambda to a bool, E0322).
 */
import type { Expr, Span } from "../../syntax/ast";
import type { BuiltinTable } from "./builtins";
import { arrayArg, badValue } from "./builtin-args";
import { sortedOrder } from "./builtins-lists";
import type { Frame, Runtime } from "./runtime-context";
import { isTruthy, renderValue, setField, type ObjectValue, type Value } from "./values";

type LambdaExpr = Extract<Expr, { kind: "Lambda" }>;
type CallExpr = Extract<Expr, { kind: "Call" }>;

interface LambdaBuiltin {
  /** The result at which applying stops (the answer is known). */
  stopAt?: (result: Value) => boolean;
  /** The builtin's value from the items and the results so far (as many as were applied). */
  finish(items: readonly Value[], results: readonly Value[], rt: Runtime, span: Span): Value;
}

const lastIsTrue = (results: readonly Value[]) => results.length > 0 && isTruthy(results[results.length - 1]);

const LAMBDA_BUILTINS: Readonly<Record<string, LambdaBuiltin | undefined>> = Object.assign(Object.create(null), {
  map: { finish: (_items, results) => [...results] },
  filter: { finish: (items, results) => items.filter((_, i) => isTruthy(results[i])) },
  find: { stopAt: isTruthy, finish: (items, results) => (lastIsTrue(results) ? items[results.length - 1] : null) },
  any: { stopAt: isTruthy, finish: (_items, results) => lastIsTrue(results) },
  all: { stopAt: (r) => !isTruthy(r), finish: (_items, results) => results.length === 0 || lastIsTrue(results) },
  sort_by: { finish: (items, results, rt, span) => sortedOrder(rt, "sort_by", results, span).map((i) => items[i]) },
  group_by: {
    finish(items, results) {
      const groups: ObjectValue = {};
      results.forEach((r, i) => {
        const key = renderValue(r);
        const group = Object.hasOwn(groups, key) ? (groups[key] as Value[]) : undefined;
        if (group) group.push(items[i]);
        else setField(groups, key, [items[i]]);
      });
      return groups;
    },
  },
} satisfies Record<string, LambdaBuiltin>);

/** The call's lambda when it is `name(xs, (x) => e)` of a builtin that takes one; else undefined. */
export function lambdaOf(call: CallExpr): LambdaExpr | undefined {
  const arg = call.args[1];
  return call.args.length === 2 && arg.kind === "Lambda" ? arg : undefined;
}

/** Binds the lambda's parameter in the frame for `run` (until its promise settles), then puts back what the name held. */
function withParam<T>(f: Frame, lambda: LambdaExpr, run: (bind: (item: Value) => void) => T): T {
  const name = lambda.param;
  const had = f.vars.has(name);
  const before = f.vars.get(name);
  const restore = () => {
    if (had) f.vars.set(name, before as Value);
    else f.vars.delete(name);
  };
  let result: T;
  try {
    result = run((item) => f.vars.set(name, item));
  } catch (e) {
    restore();
    throw e;
  }
  if (result instanceof Promise) return result.finally(restore) as T;
  restore();
  return result;
}

/** `name(xs, (x) => e)` whose body cannot suspend. */
export function applyLambdaSync(f: Frame, name: string, call: CallExpr, lambda: LambdaExpr, list: Value, body: (e: Expr) => Value): Value {
  const builtin = LAMBDA_BUILTINS[name]!;
  const items = arrayArg(f.rt, name, list, call.span);
  const results: Value[] = [];
  withParam(f, lambda, (bind) => {
    for (const item of items) {
      bind(item);
      const r = body(lambda.body);
      results.push(r);
      if (builtin.stopAt?.(r)) break;
    }
  });
  return builtin.finish(items, results, f.rt, call.span);
}

/** `name(xs, (x) => e)` whose body may suspend (a tool call, a user function…): the items one after another. */
export async function applyLambdaAsync(
  f: Frame,
  name: string,
  call: CallExpr,
  lambda: LambdaExpr,
  list: Value,
  body: (e: Expr) => Value | Promise<Value>,
): Promise<Value> {
  const builtin = LAMBDA_BUILTINS[name]!;
  const items = arrayArg(f.rt, name, list, call.span);
  const results: Value[] = [];
  await withParam(f, lambda, async (bind) => {
    for (const item of items) {
      bind(item);
      const r = await body(lambda.body);
      results.push(r);
      if (builtin.stopAt?.(r)) break;
    }
  });
  return builtin.finish(items, results, f.rt, call.span);
}

/** What a lambda builtin called without a lambda (an unchecked program: E0321) does. */
const needsLambda = (name: string) => ({
  run: (_args: Value[], rt: Runtime, span: Span): Value => badValue(rt, `${name}() takes a lambda as its second argument: ${name}(xs, (x) => …)`, span),
});

export const LAMBDA_BUILTIN_ROWS = {
  map: needsLambda("map"),
  filter: needsLambda("filter"),
  find: needsLambda("find"),
  any: needsLambda("any"),
  all: needsLambda("all"),
  sort_by: needsLambda("sort_by"),
  group_by: needsLambda("group_by"),
} satisfies BuiltinTable;
