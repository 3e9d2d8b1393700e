/**
 * Hover for `luma eval`'s words (docs/eval.md): the name `case` inside an `eval` block (the
 * dataset line the block runs for, read from the one name resolution) and the statement
 * word `score`. Neither has a definition in the document, so the index has no occurrence
 * for them: without this they would show nothing, or `case`'s bare type `any`.
 */
import type { Expr } from "../syntax/ast";
import { resolutionOf } from "../language/name-resolution";
import type { Analysis } from "./analyze-document";

const CASE_DOC =
  "`case`: the dataset line this run of the eval is for (parsed JSON, `any`; read-only). " +
  "`luma eval` runs the block once per line of the dataset named after `over`.";
const SCORE_DOC =
  "`score \"name\" value`: records a bool (true counts 1) or a number in [0, 1] for this case. " +
  "The report gives each score's mean over the dataset and the cases that fail it (false, below 0.5, or not recorded).";

export function evalHover(a: Analysis, offset: number, expr: Expr | undefined): string | undefined {
  if (!a.program?.evals) return undefined;
  if (expr?.kind === "Name" && expr.name === "case" && resolutionOf(a.program).targetOf(expr)?.kind === "case") return CASE_DOC;
  const within = a.program.evals.some((e) => e.span.start <= offset && offset <= e.span.end);
  if (!within) return undefined;
  let start = offset;
  while (start > 0 && /\w/.test(a.text[start - 1])) start--;
  const isScoreWord = a.text.startsWith("score", start) && !/\w/.test(a.text[start + 5] ?? "") && /^[ \t]+"/.test(a.text.slice(start + 5, start + 20));
  return isScoreWord ? SCORE_DOC : undefined;
}
