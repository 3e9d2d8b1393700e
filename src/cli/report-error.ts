/**
 * Turns anything thrown by a command into what the user reads and the exit code (spec §15):
 * parse/check diagnostics with source excerpts; `Error: [CODE] message` for LumaErrors;
 * an internal failure as one line (its stack only under LUMA_DEBUG=1). Never a bare stack.
 *
 * A startup error's catalog code goes on a line of its own under the message,
 * `  = code E0601 (luma explain E0601)`, so the spec's exact messages keep their line
 * byte for byte.
 *
 * A runtime error with a site (the tool call, query, `ask` or expression where it surfaced,
 * `LumaError.site`) gets the same source excerpt as a check error under that line:
 *
 *   Error: [TOOL_INPUT_INVALID] lookup.input.id is required.
 *     --> app.luma:4:5
 *     4 | x = lookup({})
 *       |     ^^^^^^^^^^
 */
import { isLumaError, type LumaError } from "../diagnostics/luma-error";
import { renderDiagnostics, sourceExcerpt, type RenderOptions } from "../diagnostics/render";
import { isRunEnding } from "../runtime/base/run-ending-error";
import { UsageError } from "./usage-error";

/** 75 is EX_TEMPFAIL: a journaled run waits for an approval and can be run again later. */
export const EXIT = { ok: 0, runtime: 1, rejected: 2, usage: 64, pending: 75 } as const;

/** The line under a startup error that names its catalog code. */
export const codeLine = (code: string): string => `  = code ${code} (luma explain ${code})`;

/** `  --> file:line:col` and the source line with a caret; the bare location when the source is unknown. */
function siteBlock(site: NonNullable<LumaError["site"]>, opts: RenderOptions): string {
  const excerpt = sourceExcerpt(site, opts);
  return excerpt === undefined ? `\n  --> ${site.file}` : `\n  --> ${excerpt.location}\n${excerpt.lines}`;
}

export interface ErrorReport {
  text: string;
  exitCode: number;
}

export function reportError(
  e: unknown,
  opts: { color: boolean; sourceOf: (file: string) => string | undefined; debug: boolean },
): ErrorReport {
  if (e instanceof UsageError) {
    return { text: `luma: ${e.message}\nRun 'luma --help' for usage.`, exitCode: EXIT.usage };
  }
  // A closed pipe ends a program quietly; a stream that cannot be written, a signal, a
  // handler that tried to exit: the error's own exit code.
  if (isRunEnding(e)) return { text: e.quiet ? "" : e.toLine(), exitCode: e.exitCode };
  if (isLumaError(e)) {
    const exitCode = e.phase === "startup" ? EXIT.rejected : e.phase === "pending" ? EXIT.pending : EXIT.runtime;
    if (e.diagnostics?.length) {
      return { text: renderDiagnostics(e.diagnostics, opts), exitCode };
    }
    const code = e.catalogCode ? `\n${codeLine(e.catalogCode)}` : "";
    const site = e.site && e.phase === "runtime" ? siteBlock(e.site, opts) : "";
    return { text: e.toLine() + site + code + (opts.debug && (e.debugStack ?? e.stack) ? `\n${e.debugStack ?? e.stack}` : ""), exitCode };
  }
  const message = e instanceof Error ? e.message : String(e);
  const stack = opts.debug && e instanceof Error && e.stack ? `\n${e.stack}` : "\n(set LUMA_DEBUG=1 for a stack trace)";
  return { text: `Error: internal error: ${message}${stack}`, exitCode: EXIT.runtime };
}
