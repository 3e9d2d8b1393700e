/**
 * `assert cond` and `assert cond, message` (luma test). A false condition raises
 * RUNTIME_ERROR whose message names the place and, for a comparison, both values:
 *
 *   assertion failed at main.test.luma:5:10: the total
 *     left:  42
 *     right: 43
 *
 * The error's site is the assert itself, so wherever it is reported the source line comes
 * once, in the excerpt under the message (`--> main.test.luma:5:10`), not in the message.
 *
 * When the condition is a comparison, its two sides are evaluated once each and the
 * operator applied to them, so both values can be shown without evaluating anything
 * twice (a side with a tool call runs once). The sync and async interpreters share this
 * file: they differ only in how a side is evaluated.
 */
import type { BinaryOp, Expr, Stmt } from "../../syntax/ast";
import { locateError, runtimeError } from "../../diagnostics/luma-error";
import { binaryOp } from "./operators";
import { locationOf } from "./runtime-errors";
import type { Frame } from "./runtime-context";
import { isTruthy, renderValue, toJson, type Value } from "./values";

type AssertStmt = Extract<Stmt, { kind: "Assert" }>;
type Comparison = Extract<Expr, { kind: "Binary" }>;

const COMPARISONS = new Set<BinaryOp>(["==", "!=", "<", "<=", ">", ">="]);

const comparison = (e: Expr): Comparison | undefined => (e.kind === "Binary" && COMPARISONS.has(e.op) ? e : undefined);

/** Runs an assert, evaluating with `evaluate` (a plain value, or a promise of one). */
export function runAssert<R extends Value | Promise<Value>>(s: AssertStmt, f: Frame, evaluate: (e: Expr) => R): R {
  const cmp = comparison(s.cond);
  if (!cmp) return then(evaluate(s.cond), (v) => (isTruthy(v) ? null : failed(s, f, evaluate))) as R;
  return then(evaluate(cmp.left), (left) =>
    then(evaluate(cmp.right), (right) =>
      isTruthy(binaryOp(f.rt, cmp.op, left, right, cmp.span)) ? null : failed(s, f, evaluate, { left, right }),
    ),
  ) as R;
}

function then(v: Value | Promise<Value>, next: (v: Value) => Value | Promise<Value>): Value | Promise<Value> {
  return v instanceof Promise ? v.then(next) : next(v);
}

function failed(s: AssertStmt, f: Frame, evaluate: (e: Expr) => Value | Promise<Value>, sides?: { left: Value; right: Value }) {
  if (!s.message) return raise(s, f, undefined, sides);
  return then(evaluate(s.message), (m) => raise(s, f, renderValue(m), sides));
}

function raise(s: AssertStmt, f: Frame, message: string | undefined, sides?: { left: Value; right: Value }): never {
  const lines = [`assertion failed at ${locationOf(f.rt.sourceOf, s.span)}: ${message ?? "the condition is false"}`];
  if (sides) lines.push(`  left:  ${toJson(sides.left)}`, `  right: ${toJson(sides.right)}`);
  const error = runtimeError("RUNTIME_ERROR", lines.join("\n"), { details: sides ? { assertion: true, ...sides } : { assertion: true } });
  throw locateError(error, s.span);
}
