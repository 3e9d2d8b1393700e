/**
 * `luma eval`'s syntax for the fast parser (grammar.ohm § evals), building the nodes of
 * `to-ast-evals.ts`: the top-level `eval "name" over "data.jsonl" { … }` and the statement
 * `score "name" expr`. Both open with a contextual word, so a program that names a variable
 * `eval` or `score` still parses: where the rest does not follow, nothing is taken.
 */
import type { EvalDecl, Stmt } from "../ast";
import { parseExpr } from "./fast-expressions";
import { type FastState, keyword, sameLine, span } from "./fast-scanner";
import { parseBlock } from "./fast-statements";
import { plainString } from "./fast-strings";

/** `EvalDecl = kwEval string kwOver string Block` (pos at the word `eval`). */
export function evalDecl(s: FastState, start: number): EvalDecl | undefined {
  s.pos = start + 4;
  const name = plainString(s);
  if (!name || keyword(s, "over") < 0) return undefined;
  const dataset = plainString(s);
  if (!dataset) return undefined;
  const body = parseBlock(s);
  if (!body) return undefined;
  return {
    kind: "Eval",
    name: name.text,
    nameSpan: span(s, name.start, name.end),
    dataset: dataset.text,
    datasetSpan: span(s, dataset.start, dataset.end),
    body,
    span: span(s, start, s.pos),
  };
}

/** `ScoreStmt = kwScore #sameLine string Expr` (pos at the word `score`). */
export function scoreStmt(s: FastState, start: number): Stmt | undefined {
  s.pos = start;
  if (keyword(s, "score") < 0 || !sameLine(s)) return undefined;
  const name = plainString(s);
  if (!name) return undefined;
  const value = parseExpr(s);
  if (!value) return undefined;
  return { kind: "Score", name: name.text, nameSpan: span(s, name.start, name.end), value, span: span(s, start, s.pos) };
}
