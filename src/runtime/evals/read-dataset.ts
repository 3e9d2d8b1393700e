/**
 * An eval's dataset (`eval NAME over "cases.jsonl"`, docs/eval.md): JSON Lines, read whole
 * before any case runs, relative to the eval file's directory. A file that cannot be read
 * (E1410) or a line that is not JSON (E1411) is an error naming the eval, the path and the
 * line — so a broken dataset never produces a partial score. Blank lines are skipped; each
 * case keeps its line number, and its `id` when the line is an object with a string or
 * number `id`, which is how the report names it.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { EvalDecl } from "../../syntax/ast";
import { startupError } from "../../diagnostics/luma-error";
import { lineColOf } from "../../diagnostics/source-position";
import type { Value } from "../interpreter/values";

export interface EvalCaseInput {
  /** The line of the dataset, from 1. */
  line: number;
  /** `case.id`, when the line has one. */
  id?: string;
  value: Value;
}

export function readDataset(evalDecl: EvalDecl, evalFile: string, cwd: string, sourceOf: (file: string) => string | undefined): { path: string; cases: EvalCaseInput[] } {
  const path = resolve(cwd, dirname(evalFile), evalDecl.dataset);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message;
    throw startupError(`${at(evalDecl, sourceOf)}: the dataset "${evalDecl.dataset}" of eval "${evalDecl.name}" cannot be read (${why}; looked at ${path})`, { catalogCode: "E1410" });
  }
  const cases: EvalCaseInput[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === "") continue;
    let value: Value;
    try {
      value = JSON.parse(raw) as Value;
    } catch (e) {
      throw startupError(`${path}:${i + 1}: line ${i + 1} of the dataset "${evalDecl.dataset}" (eval "${evalDecl.name}") is not JSON: ${(e as Error).message}`, { catalogCode: "E1411" });
    }
    cases.push({ line: i + 1, id: idOf(value), value });
  }
  return { path, cases };
}

function idOf(value: Value): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const id = (value as Record<string, Value>).id;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/** `file:line:col` of the eval's dataset path, where the message points. */
function at(evalDecl: EvalDecl, sourceOf: (file: string) => string | undefined): string {
  const { file, start } = evalDecl.datasetSpan;
  const source = sourceOf(file);
  if (source === undefined) return file;
  const { line, col } = lineColOf(source, start);
  return `${file}:${line}:${col}`;
}
