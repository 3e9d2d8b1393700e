/**
 * Diagnostics are data: a message, a severity, and where. They are collected (a check
 * reports every problem it finds, not the first) and rendered in one place, `render.ts`.
 */
import type { Span } from "./span";
import type { DiagnosticCode } from "./catalog";

export type Severity = "error" | "warning";

export interface Diagnostic {
  severity: Severity;
  /** The message as the spec words it (exact messages are reproduced byte for byte). */
  message: string;
  /** Where; absent for problems that belong to no place in the source (config, CLI). */
  span?: Span;
  /** Stable code from the catalog (`src/diagnostics/catalog/`), e.g. `E0301`; `luma explain CODE`. A code with no entry does not compile. */
  code?: DiagnosticCode;
  /** Short suggestions rendered under the message ("did you mean `name`?"). */
  hints?: string[];
}

/** Optional parts of a diagnostic beyond its message and span. */
export interface DiagnosticExtra {
  code?: DiagnosticCode;
  hints?: string[];
}

const make = (severity: Severity, message: string, span: Span | undefined, extra: DiagnosticExtra | undefined): Diagnostic => {
  const d: Diagnostic = { severity, message, span };
  if (extra?.code !== undefined) d.code = extra.code;
  if (extra?.hints !== undefined && extra.hints.length > 0) d.hints = extra.hints;
  return d;
};

export const error = (message: string, span?: Span, extra?: DiagnosticExtra): Diagnostic => make("error", message, span, extra);
export const warning = (message: string, span?: Span, extra?: DiagnosticExtra): Diagnostic => make("warning", message, span, extra);

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean =>
  diagnostics.some((d) => d.severity === "error");
