/**
 * `luma eval`'s rules (issue #31 §2, docs/eval.md): an `eval` block lives in a `*.eval.luma`
 * file (E1401) under a name of its own in that file (E1403); `score` stands only in an eval's
 * block (E1402) and records a bool or a number in [0, 1] (E1404, a literal outside the range
 * E1406); `case`, the dataset line, is read-only (E1405). A score whose type is known only at
 * run time (`any`, a field of `case`) is checked when the case runs.
 */
import type { Stmt } from "../../syntax/ast";
import { stmtsOf } from "../../language/walk";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { canBe } from "../types/assignability";
import { typeText, type Type } from "../types/type-model";
import { typesOf } from "../types/typed-program";

const EVAL_FILE_SUFFIX = ".eval.luma";
const SCORABLE: Type["kind"][] = ["bool", "int", "float", "never"];

export function evals(ctx: CheckContext): void {
  const named = new Set<string>();
  for (const e of ctx.program.evals ?? []) {
    if (!e.span.file.endsWith(EVAL_FILE_SUFFIX)) ctx.report(messages.evalOutsideEvalFile(e.span.file), e.nameSpan);
    if (named.has(e.name)) ctx.report(messages.duplicateEvalName(e.name), e.nameSpan);
    named.add(e.name);
  }
  let scores: readonly Extract<Stmt, { kind: "Score" }>[] = [];
  for (const unit of ctx.units) {
    const found = stmtsOf(unit.flat, "Score");
    if (unit.kind !== "eval") {
      for (const s of found) ctx.report(messages.scoreOutsideEval(), s.span);
      continue;
    }
    scores = scores.concat(found);
    for (const s of stmtsOf(unit.flat, "Assign")) if (s.name === "case") ctx.report(messages.caseAssigned(), s.nameSpan);
  }
  if (scores.length === 0) return;
  const typed = typesOf(ctx);
  for (const s of scores) {
    const v = s.value;
    if (v.kind === "Num" && (v.value < 0 || v.value > 1)) {
      ctx.report(messages.scoreOutOfRange(s.name, String(v.value)), v.span);
      continue;
    }
    const t = typed.typeOf(v);
    if (!canBe(t, SCORABLE)) ctx.report(messages.scoreNotScorable(s.name, typeText(t)), v.span);
  }
}
