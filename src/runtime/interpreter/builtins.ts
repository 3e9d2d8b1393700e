/**
 * The builtin functions' implementations (spec §7): one per row of the language's table
 * (`language/builtins.ts`: name, arity, doc), which `IMPLEMENTATIONS` must cover to
 * compile. User functions and agent methods of the same name shadow a builtin.
 *
 * - `print(v…)`: strings raw, other values as compact JSON, joined by one space, one line.
 * - `len(v)`: characters of a string (UTF-16 code units, as `text_stats` counts), items of
 *   an array, keys of an object; anything else is RUNTIME_ERROR.
 * - `str(v)`: the text interpolation would produce. `json(v)`: compact JSON text.
 * - `keys(obj)`: an object's keys in insertion order; anything else is RUNTIME_ERROR.
 * - `now()`: the current time as ISO-8601 (`2025-01-31T12:00:00.000Z`).
 * - conversions and numbers in `builtins-numbers.ts`, strings in `builtins-text.ts`; the
 *   standard library (issue #28): lists in `builtins-lists.ts`, patterns and padding in
 *   `builtins-regex.ts`, time in `builtins-time.ts`, JSON, env, randomness and stdin in
 *   `builtins-system.ts`.
 * - lambdas (`map(xs, (x) => e)` …) in `builtins-lambdas.ts`: the evaluators apply them.
 * - `calls(name)`: how many times tool `name`'s handler ran in this run (in `luma test`, in
 *   this test): cache hits and refused calls are not runs, each retry is.
 * Every builtin returns a value; `print` returns `null`; `exit` does not return.
 */
import { BUILTINS as SPECS, type BuiltinName, type BuiltinSpec } from "../../language/builtins";
import type { Span } from "../../syntax/ast";
import { wrongType } from "./builtin-args";
import { NUMBER_BUILTINS } from "./builtins-numbers";
import { TEXT_BUILTINS } from "./builtins-text";
import { THREAD_BUILTINS } from "./builtins-threads";
import { isThread } from "./thread-values";
import { LIST_BUILTINS } from "./builtins-lists";
import { REGEX_BUILTINS } from "./builtins-regex";
import { SYSTEM_BUILTINS } from "./builtins-system";
import { TIME_BUILTINS } from "./builtins-time";
import { LAMBDA_BUILTIN_ROWS } from "./builtins-lambdas";
import { errorAt } from "./runtime-errors";
import type { Runtime } from "./runtime-context";
import { isObjectValue, renderValue, toJson, type Value } from "./values";

/** A builtin's implementation: its arity has been checked (`callBuiltin`). */
export interface BuiltinImpl {
  run(args: Value[], rt: Runtime, span: Span): Value;
  /** A builtin that waits (`sleep`, marked `suspends` in the table): the asynchronous evaluator calls this instead of `run`. */
  wait?(args: Value[], rt: Runtime, span: Span): Promise<Value>;
}

/** Some builtins' implementations, by name: each file of them `satisfies` it. */
export type BuiltinTable = Partial<Record<BuiltinName, BuiltinImpl>>;

/** What the interpreter calls: the language's row (arity) with its implementation. */
export interface Builtin extends BuiltinSpec, BuiltinImpl {}

const CORE = {
  print: {
    run(args, rt) {
      rt.host.stdout(args.map(renderValue).join(" "));
      return null;
    },
  },
  len: {
    run([v], rt, span) {
      if (typeof v === "string" || Array.isArray(v)) return v.length;
      if (isThread(v)) return v.length;
      if (isObjectValue(v)) return Object.keys(v).length;
      return wrongType(rt, "len", v, "a string, an array or an object", span);
    },
  },
  str: { run: ([v]) => renderValue(v) },
  json: { run: ([v]) => toJson(v) },
  keys: {
    run([v], rt, span) {
      if (isObjectValue(v)) return Object.keys(v);
      return wrongType(rt, "keys", v, "an object", span);
    },
  },
  calls: {
    run([v], rt, span) {
      if (typeof v !== "string") return wrongType(rt, "calls", v, "a tool name (a string)", span);
      return rt.host.handlerRuns?.(v) ?? 0;
    },
  },
  now: {
    run: (_args, rt) => (rt.host.now ? rt.host.now() : new Date()).toISOString(),
  },
} satisfies BuiltinTable;

/** Every builtin of the language's table: one missing here does not compile. */
const IMPLEMENTATIONS: Record<BuiltinName, BuiltinImpl> = {
  ...CORE,
  ...NUMBER_BUILTINS,
  ...TEXT_BUILTINS,
  ...THREAD_BUILTINS,
  ...LIST_BUILTINS,
  ...REGEX_BUILTINS,
  ...SYSTEM_BUILTINS,
  ...TIME_BUILTINS,
  ...LAMBDA_BUILTIN_ROWS,
};

/** Without a prototype, so `toString(x)` is an unknown function, not Object.prototype's. */
export const BUILTINS: Readonly<Record<string, Builtin | undefined>> = Object.freeze(
  Object.assign(
    Object.create(null) as Record<string, Builtin>,
    Object.fromEntries(Object.entries(SPECS).map(([name, spec]) => {
      const impl = IMPLEMENTATIONS[name as BuiltinName];
      return [name, { ...spec, run: impl.run, wait: impl.wait }];
    })),
  ),
);

function checkArity(rt: Runtime, name: string, b: Builtin, args: Value[], span: Span): void {
  if (args.length < b.min || args.length > b.max) {
    const expected = b.min === b.max ? `${b.min}` : b.max === Infinity ? `at least ${b.min}` : `${b.min} to ${b.max}`;
    throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `${name}() expects ${expected} argument(s), got ${args.length}`, span);
  }
}

/** Call a builtin after checking its argument count. */
export function callBuiltin(rt: Runtime, name: string, b: Builtin, args: Value[], span: Span): Value {
  checkArity(rt, name, b, args, span);
  return b.run(args, rt, span);
}

/** Call a builtin from the asynchronous evaluator: one that waits (`sleep`) is awaited. */
export function callBuiltinAsync(rt: Runtime, name: string, b: Builtin, args: Value[], span: Span): Value | Promise<Value> {
  checkArity(rt, name, b, args, span);
  return b.wait ? b.wait(args, rt, span) : b.run(args, rt, span);
}
