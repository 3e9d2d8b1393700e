/**
 * The pure operations behind expressions, shared by the synchronous and the asynchronous
 * evaluator: binary and unary operators, field access and indexing.
 *
 * Rules (spec §7; choices where it is silent, documented in docs/language/functions.md):
 * - `+`: a string on either side concatenates, the other side rendered as interpolation
 *   renders it; two numbers add; two arrays concatenate (the one way to grow a list, as Luma
 *   has no mutation); anything else is RUNTIME_ERROR naming the operator and both types.
 * - `- * / %` need two numbers. `/` is real division (`7 / 2` is `3.5`); `%` keeps the sign
 *   of the left side (JS semantics). Division or modulo by zero, or a result that is not a
 *   finite number (overflow), is RUNTIME_ERROR.
 * - `== !=` deep structural equality. `< <= > >=` compare two numbers, or two strings (by
 *   UTF-16 code units); operands of different types compare false, never an error.
 * - `and`/`or` short-circuit (in the evaluators) and yield booleans; `not` yields a boolean.
 * - `a.b`: on an object, the field or `null` when missing; on `null`, RUNTIME_ERROR
 *   `Cannot read field 'b' of null`; on any other type, RUNTIME_ERROR.
 * - `a[i]`: arrays by integer, objects by string key; out of range (negative included) or
 *   missing is `null`; any other combination is RUNTIME_ERROR.
 */
import { isThread } from "./thread-values";
import type { BinaryOp, Expr, Span } from "../../syntax/ast";
import { errorAt } from "./runtime-errors";
import type { Runtime } from "./runtime-context";
import { isObjectValue, isTruthy, renderValue, typeName, valuesEqual, type Value } from "./values";

type Arith = (a: number, b: number) => number;

export type BinaryExpr = Extract<Expr, { kind: "Binary" }>;

/**
 * The Binary nodes down the left side of `e`, `e` first. Binary operators are left-
 * associative, so a flat `a + b + … ` of n terms is n levels deep on its left: the
 * evaluators fold such a chain with a loop, bottom up, instead of recursing n times.
 * `descend` says whether to go below a node into its left operand.
 */
export function leftSpine(e: BinaryExpr, descend?: (left: BinaryExpr) => boolean): BinaryExpr[] {
  const spine = [e];
  let node = e;
  while (node.left.kind === "Binary" && (!descend || descend(node.left))) {
    node = node.left;
    spine.push(node);
  }
  return spine;
}

const ARITHMETIC: Record<"-" | "*" | "/" | "%", Arith> = {
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "%": (a, b) => a % b,
};

function typeError(rt: Runtime, op: string, l: Value, r: Value, span: Span): never {
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Operator '${op}' cannot be applied to ${typeName(l)} and ${typeName(r)}`, span);
}

function finite(rt: Runtime, op: string, n: number, span: Span): number {
  if (Number.isFinite(n)) return n;
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Numeric overflow: the result of '${op}' is not a finite number`, span);
}

/** Every binary operator except the short-circuiting `and`/`or`. */
export function binaryOp(rt: Runtime, op: BinaryOp, l: Value, r: Value, span: Span): Value {
  switch (op) {
    case "+":
      if (typeof l === "number" && typeof r === "number") return finite(rt, op, l + r, span);
      if (typeof l === "string" || typeof r === "string") return renderValue(l) + renderValue(r);
      if (Array.isArray(l) && Array.isArray(r)) return l.concat(r);
      return typeError(rt, op, l, r, span);
    case "-":
    case "*":
    case "/":
    case "%":
      if (typeof l !== "number" || typeof r !== "number") return typeError(rt, op, l, r, span);
      if (r === 0 && (op === "/" || op === "%")) {
        throw errorAt(rt.sourceOf, "RUNTIME_ERROR", op === "/" ? "Division by zero" : "Modulo by zero", span);
      }
      return finite(rt, op, ARITHMETIC[op](l, r), span);
    case "==":
      return valuesEqual(l, r);
    case "!=":
      return !valuesEqual(l, r);
    case "<":
    case "<=":
    case ">":
    case ">=":
      return compare(op, l, r);
    case "and":
      return isTruthy(l) && isTruthy(r);
    case "or":
      return isTruthy(l) || isTruthy(r);
    default:
      throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Unknown operator '${String(op)}'`, span);
  }
}

function compare(op: "<" | "<=" | ">" | ">=", l: Value, r: Value): boolean {
  const bothNumbers = typeof l === "number" && typeof r === "number";
  const bothStrings = typeof l === "string" && typeof r === "string";
  if (!bothNumbers && !bothStrings) return false;
  const a = l as number | string;
  const b = r as number | string;
  switch (op) {
    case "<":
      return a < b;
    case "<=":
      return a <= b;
    case ">":
      return a > b;
    case ">=":
      return a >= b;
  }
}

export function unaryOp(rt: Runtime, op: "-" | "not", v: Value, span: Span): Value {
  if (op === "not") return !isTruthy(v);
  if (typeof v === "number") return -v;
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Operator '-' cannot be applied to ${typeName(v)}`, span);
}

export function readField(rt: Runtime, obj: Value, field: string, span: Span): Value {
  if (isThread(obj)) {
    if (field === "messages") return obj.messages;
    throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `A Thread has no field '${field}' (only 'messages')`, span);
  }
  if (isObjectValue(obj)) return Object.hasOwn(obj, field) ? (obj[field] ?? null) : null;
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Cannot read field '${field}' of ${typeName(obj)}`, span);
}

export function readIndex(rt: Runtime, obj: Value, index: Value, span: Span): Value {
  if (Array.isArray(obj)) {
    if (typeof index === "number" && Number.isInteger(index)) {
      return index >= 0 && index < obj.length ? (obj[index] ?? null) : null;
    }
  } else if (isObjectValue(obj)) {
    if (typeof index === "string") return Object.hasOwn(obj, index) ? (obj[index] ?? null) : null;
  }
  const want = Array.isArray(obj) ? "an int index" : isObjectValue(obj) ? "a string key" : "";
  const message = want
    ? `Cannot index ${typeName(obj)} with ${typeName(index)}: expected ${want}`
    : `Cannot index ${typeName(obj)}`;
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", message, span);
}
