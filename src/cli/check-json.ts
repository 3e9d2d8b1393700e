/**
 * `luma check --format json FILE`: the check's outcome as one JSON object on stdout
 * (`diagnostics-json.ts` has the shape) and the usual exit code — 0 when the program
 * passes (warnings included in the list), 2 when it is rejected. A rejection without
 * diagnostics (the file cannot be read) becomes one diagnostic without a position, so a
 * consumer always reads JSON. Never coloured.
 */
import { error } from "../diagnostics/diagnostic";
import { diagnosticsJson } from "../diagnostics/diagnostics-json";
import { isLumaError } from "../diagnostics/luma-error";
import type { DiagnosticCode } from "../diagnostics/catalog";
import { checkFile } from "../index";
import { EXIT } from "./report-error";

export async function checkAsJson(file: string, sources: Map<string, string>): Promise<{ text: string; exitCode: number }> {
  const sourceOf = (f: string) => sources.get(f);
  try {
    const { warnings } = await checkFile(file, { sources });
    return { text: diagnosticsJson(warnings, sourceOf, file), exitCode: EXIT.ok };
  } catch (e) {
    if (!isLumaError(e) || e.phase !== "startup") throw e;
    // Without a catalog code, a start-up error's spec code stands in (one the catalog explains too).
    const code = e.catalogCode ?? (e.code as DiagnosticCode | undefined);
    const list = e.diagnostics?.length ? e.diagnostics : [error(e.message, undefined, { code })];
    return { text: diagnosticsJson(list, sourceOf, file), exitCode: EXIT.rejected };
  }
}
