/**
 * The schema compiler's only failure: a program the checker should have rejected (an
 * unknown name, a recursive schema, a bad annotation) reaching it anyway. It becomes a
 * startup LumaError carrying a diagnostic at the offending span, never a crash.
 */
import { error } from "../diagnostics/diagnostic";
import { startupError, type LumaError } from "../diagnostics/luma-error";
import type { Span } from "../syntax/ast";

export const schemaError = (message: string, span?: Span): LumaError =>
  startupError(message, { diagnostics: [error(message, span, { code: "E0613" })] });
