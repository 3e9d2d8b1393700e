/**
 * Diagnostics are data: a message, a severity, and where. They are collected (a check
 * reports every problem it finds, not the first) and rendered in one place, `render.ts`.
 */
import type { Span } from "../syntax/ast";

export type Severity = "error" | "warning";

export interface Diagnostic {
  severity: Severity;
  /** The message as the spec words it (exact messages are reproduced byte for byte). */
  message: string;
  /** Where; absent for problems that belong to no place in the source (config, CLI). */
  span?: Span;
}

export const error = (message: string, span?: Span): Diagnostic => ({ severity: "error", message, span });
export const warning = (message: string, span?: Span): Diagnostic => ({ severity: "warning", message, span });

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean =>
  diagnostics.some((d) => d.severity === "error");
