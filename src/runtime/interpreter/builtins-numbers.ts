/**
 * Conversions and number builtins (spec §7). `args` are strings, so a script parses them:
 * a conversion that cannot parse its value is a RUNTIME_ERROR that quotes the value —
 * never a silent `null` or `NaN` that a comparison later reads as false.
 *
 * - `int(v)`: a string of decimal digits (sign and surrounding blanks allowed) or a number
 *   (truncated toward zero). `float(v)`: a decimal or exponent string, or a number.
 *   `bool(v)`: `"true"` / `"false"` (any case, blanks allowed) or a bool.
 * - `round(x, digits?)`: half away from zero, to `digits` (0–15, default 0) decimals.
 *   `fixed(x, digits)`: the text of `x` rounded the same way, with exactly `digits` (0–20)
 *   decimals — `fixed(0.1 + 0.2, 2)` is `"0.30"`; the way to write numbers in a report.
 * - `range(n)`: `0 … n-1`; `range(a, b)`: `a … b-1` (empty when b ≤ a); at most
 *   10,000,000 items.
 * - `abs(x)`: keeps its argument's type; `floor(x)`, `ceil(x)`: an int (`ceil(-0.5)` is 0).
 * - `sum`, `min`, `max`: over one array of numbers, or over their number arguments;
 *   `sum` of nothing is 0, `min`/`max` of nothing is an error.
 * - `exit(code?)`: ends the run with status `code` (0–255, default 0) through the run's
 *   lifecycle (`ProgramExit`): the trace and the journal close as for any other ending.
 */
import type { Span } from "../../syntax/ast";
import type { BuiltinImpl, BuiltinTable } from "./builtins";
import { badValue, intArg, numberArg, quoted, wrongType } from "./builtin-args";
import type { Runtime } from "./runtime-context";
import { ProgramExit } from "../base/run-ending-error";
import { typeName, type Value } from "./values";

const INT_TEXT = /^\s*[+-]?\d+\s*$/;
const FLOAT_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
export const MAX_RANGE = 10_000_000;

function toInt(rt: Runtime, v: Value, span: Span): number {
  if (typeof v === "number") return Math.trunc(v);
  if (typeof v !== "string") return wrongType(rt, "int", v, "a string or a number", span);
  const n = INT_TEXT.test(v) ? Number(v) : NaN;
  if (Number.isSafeInteger(n)) return n;
  return badValue(rt, `int() cannot parse ${quoted(v)} as an int${Number.isNaN(n) ? "" : " (out of range)"}`, span);
}

function toFloat(rt: Runtime, v: Value, span: Span): number {
  if (typeof v === "number") return v;
  if (typeof v !== "string") return wrongType(rt, "float", v, "a string or a number", span);
  const n = FLOAT_TEXT.test(v) ? Number(v) : NaN;
  if (Number.isFinite(n)) return n;
  return badValue(rt, `float() cannot parse ${quoted(v)} as a float`, span);
}

function toBool(rt: Runtime, v: Value, span: Span): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v !== "string") return wrongType(rt, "bool", v, "a string or a bool", span);
  const word = v.trim().toLowerCase();
  if (word === "true" || word === "false") return word === "true";
  return badValue(rt, `bool() cannot parse ${quoted(v)} as a bool (expected "true" or "false")`, span);
}

function digitsArg(rt: Runtime, name: string, v: Value | undefined, max: number, span: Span): number {
  if (v === undefined) return 0;
  const d = intArg(rt, name, v, span, `digits as an int from 0 to ${max}`);
  return d >= 0 && d <= max ? d : badValue(rt, `${name}() takes 0 to ${max} digits, got ${d}`, span);
}

/** Half away from zero; the nudge by one epsilon makes 1.005 (stored as 1.00499…) round up as written. */
function roundTo(x: number, digits: number): number {
  const scale = 10 ** digits;
  const r = Math.round(Math.abs(x) * scale * (1 + Number.EPSILON)) / scale;
  return r === 0 ? 0 : Math.sign(x) * r;
}

/** The numbers `sum`/`min`/`max` work over: one array's items, or the arguments themselves. */
function numbersOf(rt: Runtime, name: string, args: Value[], span: Span): number[] {
  const items = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    if (typeof v !== "number") badValue(rt, `${name}() expects numbers, got ${typeName(v)} ${quoted(v)} (item ${i + 1})`, span);
  }
  return items as number[];
}

function extreme(name: "min" | "max"): BuiltinImpl {
  const pick = name === "min" ? Math.min : Math.max;
  return {
    run(args, rt, span) {
      const ns = numbersOf(rt, name, args, span);
      if (ns.length === 0) return badValue(rt, `${name}() of no numbers has no value`, span);
      let best = ns[0];
      for (let i = 1; i < ns.length; i++) best = pick(best, ns[i]);
      return best;
    },
  };
}

export const NUMBER_BUILTINS = {
  int: { run: ([v], rt, span) => toInt(rt, v, span) },
  float: { run: ([v], rt, span) => toFloat(rt, v, span) },
  bool: { run: ([v], rt, span) => toBool(rt, v, span) },
  round: {
    run: ([x, d], rt, span) => roundTo(numberArg(rt, "round", x, span), digitsArg(rt, "round", d, 15, span)),
  },
  fixed: {
    run([x, d], rt, span) {
      const digits = digitsArg(rt, "fixed", d, 20, span);
      return roundTo(numberArg(rt, "fixed", x, span), digits).toFixed(digits);
    },
  },
  range: {
    run(args, rt, span) {
      const from = args.length === 2 ? intArg(rt, "range", args[0], span) : 0;
      const to = intArg(rt, "range", args[args.length - 1], span);
      const count = Math.max(0, to - from);
      if (count > MAX_RANGE) return badValue(rt, `range() of ${count} items is over the limit of ${MAX_RANGE}`, span);
      const out = new Array<Value>(count);
      for (let i = 0; i < count; i++) out[i] = from + i;
      return out;
    },
  },
  abs: { run: ([x], rt, span) => Math.abs(numberArg(rt, "abs", x, span)) },
  floor: { run: ([x], rt, span) => Math.floor(numberArg(rt, "floor", x, span)) },
  ceil: { run: ([x], rt, span) => Math.ceil(numberArg(rt, "ceil", x, span)) || 0 },
  sum: {
    run(args, rt, span) {
      let total = 0;
      for (const n of numbersOf(rt, "sum", args, span)) total += n;
      return total;
    },
  },
  min: extreme("min"),
  max: extreme("max"),
  exit: {
    run([code], rt, span) {
      const status = code === undefined ? 0 : intArg(rt, "exit", code, span, "a status as an int from 0 to 255");
      if (status < 0 || status > 255) return badValue(rt, `exit() takes a status from 0 to 255, got ${status}`, span);
      throw new ProgramExit(status);
    },
  },
} satisfies BuiltinTable;
