/**
 * `score "name" expr` (luma eval, docs/eval.md): records one score of the case the run is
 * for, through the host's `evalCase` (runtime/testing/eval/). The value is a bool or a
 * number in [0, 1]; anything else — known only now, when the checker could not type it (a
 * field of `case`, an agent's `any`) — fails the case with a RUNTIME_ERROR naming the score.
 * The sync and async interpreters share this file: they differ only in how the value is
 * evaluated.
 */
import type { Expr, Stmt } from "../../syntax/ast";
import { locateError, runtimeError } from "../../diagnostics/luma-error";
import type { Frame } from "./runtime-context";
import { toJson, type Value } from "./values";

type ScoreStmt = Extract<Stmt, { kind: "Score" }>;

/** Runs a score, evaluating with `evaluate` (a plain value, or a promise of one). */
export function runScore<R extends Value | Promise<Value>>(s: ScoreStmt, f: Frame, evaluate: (e: Expr) => R): R {
  const v = evaluate(s.value);
  return (v instanceof Promise ? v.then((value) => record(s, f, value)) : record(s, f, v)) as R;
}

function record(s: ScoreStmt, f: Frame, value: Value): null {
  const sink = f.rt.host.evalCase;
  if (!sink) throw locateError(runtimeError("RUNTIME_ERROR", `score "${s.name}" records a score of an eval's case: only luma eval runs it`), s.span);
  const fits = typeof value === "boolean" || (typeof value === "number" && value >= 0 && value <= 1);
  if (!fits) {
    throw locateError(runtimeError("RUNTIME_ERROR", `score "${s.name}" must be a bool or a number in [0, 1], not ${toJson(value)}`), s.value.span);
  }
  sink.score(s.name, value as boolean | number);
  return null;
}
