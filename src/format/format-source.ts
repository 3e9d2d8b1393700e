/**
 * `formatSource(text, file)`: a Luma file in the canonical layout (`luma fmt`, and the
 * language server's document formatting), or the diagnostics that stop it (a file that
 * does not parse is left alone).
 *
 * The formatter checks its own work before it answers: the output must parse to the same
 * AST as the input (spans aside) and hold the same comments in the same order. Output
 * that fails that is never returned — a formatter bug becomes an error naming the file,
 * not a changed program.
 */
import { type Diagnostic, error } from "../diagnostics/diagnostic";
import type { Program } from "../syntax/ast";
import { scanLexical } from "../syntax/lexical-scan";
import { parse } from "../syntax/parse";
import { UnprintableNode } from "./print-context";
import { printProgram } from "./print-program";

/** Catalog code of a file the formatter cannot print or cannot print faithfully (a formatter bug). */
const CANNOT_FORMAT_CODE = "E0653";

export type FormatResult = { text: string; diagnostics?: undefined } | { text?: undefined; diagnostics: Diagnostic[] };

const isSpanKey = (key: string): boolean => key === "span" || key.endsWith("Span");

/** A program as data without its positions: what "the same meaning" compares. */
export const withoutSpans = (program: Program): string =>
  JSON.stringify(program, (key, value) => (isSpanKey(key) ? undefined : value));

/**
 * Whether two programs are equal as `withoutSpans` would print them (same keys in the same
 * order, same values), compared with a stack: a 20,000-term `a and b and …` is as deep,
 * past what `JSON.stringify` with a replacer recurses through.
 */
export function sameWithoutSpans(a: Program, b: Program): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop() as [unknown, unknown];
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) {
      if (typeof x === "number" && typeof y === "number" && Number.isNaN(x) && Number.isNaN(y)) continue;
      return false;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const xKeys = Object.keys(x).filter((k) => !isSpanKey(k) && (x as Record<string, unknown>)[k] !== undefined);
    const yKeys = Object.keys(y).filter((k) => !isSpanKey(k) && (y as Record<string, unknown>)[k] !== undefined);
    if (xKeys.length !== yKeys.length) return false;
    for (let i = 0; i < xKeys.length; i++) {
      if (xKeys[i] !== yKeys[i]) return false;
      stack.push([(x as Record<string, unknown>)[xKeys[i]], (y as Record<string, unknown>)[yKeys[i]]]);
    }
  }
  return true;
}

const commentTexts = (source: string): string[] =>
  scanLexical(source).comments.map((c) => source.slice(c.start, c.end).trimEnd());

export function formatSource(text: string, file: string): FormatResult {
  const parsed = parse(text, file);
  if (!parsed.program) return { diagnostics: parsed.diagnostics };
  let output: string;
  try {
    output = printProgram(parsed.program, text, scanLexical(text).comments);
  } catch (e) {
    if (!(e instanceof UnprintableNode)) throw e;
    return { diagnostics: [error(`luma fmt cannot format ${file}: ${e.message}`, e.span, { code: CANNOT_FORMAT_CODE })] };
  }
  const again = parse(output, file);
  const same =
    again.program !== undefined &&
    sameWithoutSpans(again.program, parsed.program) &&
    commentTexts(output).join("\0") === commentTexts(text).join("\0");
  if (!same) {
    return {
      diagnostics: [
        error(
          `luma fmt cannot format ${file} without changing its meaning or comments; the file is left as it is (please report this)`,
          undefined,
          { code: CANNOT_FORMAT_CODE },
        ),
      ],
    };
  }
  return { text: output };
}
