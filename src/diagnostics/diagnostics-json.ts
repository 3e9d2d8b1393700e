/**
 * `luma check --format json`: diagnostics as one JSON object for editors and CI,
 *
 *   {"diagnostics":[{"file","line","column","end_line","end_column","severity","code","message","hints":[…]}]}
 *
 * Lines and columns are 1-based, columns counted in UTF-16 code units as the text
 * rendering counts them; the end is exclusive (the column just after the span), as editors
 * take ranges. A problem with no place in the source (a file that cannot be read) has
 * `null` positions; a diagnostic without a catalog code has `"code": null`. The shape is
 * the same for every field, present or not, so a consumer never tests for a missing key.
 */
import type { Diagnostic } from "./diagnostic";
import { lineColOf } from "./source-position";

export interface DiagnosticJson {
  file: string | null;
  line: number | null;
  column: number | null;
  end_line: number | null;
  end_column: number | null;
  severity: Diagnostic["severity"];
  code: string | null;
  message: string;
  hints: string[];
}

export function diagnosticJson(d: Diagnostic, sourceOf: (file: string) => string | undefined, file?: string): DiagnosticJson {
  const source = d.span ? sourceOf(d.span.file) : undefined;
  const start = d.span && source !== undefined ? lineColOf(source, d.span.start) : undefined;
  const end = d.span && source !== undefined ? lineColOf(source, d.span.end) : undefined;
  return {
    file: d.span?.file ?? file ?? null,
    line: start?.line ?? null,
    column: start?.col ?? null,
    end_line: end?.line ?? null,
    end_column: end?.col ?? null,
    severity: d.severity,
    code: d.code ?? null,
    message: d.message,
    hints: d.hints ?? [],
  };
}

/** The whole report, one line of JSON. `file` names diagnostics that have no span. */
export function diagnosticsJson(list: readonly Diagnostic[], sourceOf: (file: string) => string | undefined, file?: string): string {
  return JSON.stringify({ diagnostics: list.map((d) => diagnosticJson(d, sourceOf, file)) });
}
