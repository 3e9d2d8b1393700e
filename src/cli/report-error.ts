/**
 * Turns anything thrown by a command into what the user reads and the exit code (spec §15):
 * parse/check diagnostics with source excerpts; `Error: [CODE] message` for LumaErrors;
 * an internal failure as one line (its stack only under LUMA_DEBUG=1). Never a bare stack.
 */
import { isLumaError } from "../diagnostics/luma-error";
import { renderDiagnostics } from "../diagnostics/render";
import { UsageError } from "./argv";

/** 75 is EX_TEMPFAIL: a journaled run waits for an approval and can be run again later. */
export const EXIT = { ok: 0, runtime: 1, rejected: 2, usage: 64, pending: 75 } as const;

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
  if (isLumaError(e)) {
    const exitCode = e.phase === "startup" ? EXIT.rejected : e.phase === "pending" ? EXIT.pending : EXIT.runtime;
    if (e.diagnostics?.length) {
      return { text: renderDiagnostics(e.diagnostics, opts), exitCode };
    }
    return { text: e.toLine() + (opts.debug && e.stack ? `\n${e.stack}` : ""), exitCode };
  }
  const message = e instanceof Error ? e.message : String(e);
  const stack = opts.debug && e instanceof Error && e.stack ? `\n${e.stack}` : "\n(set LUMA_DEBUG=1 for a stack trace)";
  return { text: `Error: internal error: ${message}${stack}`, exitCode: EXIT.runtime };
}
