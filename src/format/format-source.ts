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

/** A program as data without its positions: what "the same meaning" compares. */
export const withoutSpans = (program: Program): string =>
  JSON.stringify(program, (key, value) => (key === "span" || key.endsWith("Span") ? undefined : value));

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
    withoutSpans(again.program) === withoutSpans(parsed.program) &&
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
