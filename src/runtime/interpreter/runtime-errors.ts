/**
 * Every error the interpreter raises itself is a LumaError (phase "runtime") whose message
 * ends with where it happened: `Division by zero at app.luma:4:12`. Errors that arrive from
 * the tool pipeline keep their message byte for byte (the spec quotes several exactly), so
 * only errors born here name their place in the message. Every error leaving a statement
 * also gets its `site` (the innermost span that saw it: a tool call, an `ask`, else the
 * statement), which the CLI renders as a source excerpt under the message line.
 *
 * Anything else thrown while a statement runs (a JS TypeError from an unexpected value, a
 * host callback failing, a JS stack overflow) is turned into RUNTIME_ERROR at the innermost
 * statement, so `luma` never shows a JS stack for a user program.
 */
import { LumaError, isLumaError, locateError, runtimeError, type ErrorCode } from "../../diagnostics/luma-error";
import { lineColOf } from "../../diagnostics/source-position";
import type { Span } from "../../syntax/ast";
import type { ObjectValue, Value } from "./values";

export type SourceOf = (file: string) => string | undefined;

/** `file:line:col`, or just the file when its source is not known. */
export function locationOf(sourceOf: SourceOf, span: Span): string {
  const source = sourceOf(span.file);
  if (source === undefined) return span.file;
  const at = lineColOf(source, span.start);
  return `${span.file}:${at.line}:${at.col}`;
}

/** A located runtime error: `<message> at file:line:col`. */
export function errorAt(
  sourceOf: SourceOf,
  code: ErrorCode,
  message: string,
  span: Span,
  details?: unknown,
): LumaError {
  return locateError(runtimeError(code, `${message} at ${locationOf(sourceOf, span)}`, details === undefined ? {} : { details }), span);
}

/**
 * Is this an error object shaped like a LumaError (a handler's LumaToolError may come from
 * another copy of the module, so `instanceof` alone is not enough)?
 */
function isLumaShaped(e: unknown): e is { code: string; message: string; retryable: boolean; details?: unknown } {
  if (isLumaError(e)) return true;
  return (
    e instanceof Error &&
    typeof (e as { code?: unknown }).code === "string" &&
    typeof (e as { retryable?: unknown }).retryable === "boolean"
  );
}

/** Anything thrown → a LumaError; a non-Luma error becomes RUNTIME_ERROR located at `span`. */
export function asLumaError(e: unknown, sourceOf: SourceOf, span: Span): LumaError {
  if (isLumaError(e)) return locateError(e, span);
  if (isLumaShaped(e)) {
    const { code, message, retryable, details } = e;
    return locateError(new LumaError({ code, message, retryable, details, phase: "runtime" }), span);
  }
  const what = e instanceof RangeError && /call stack/i.test(e.message)
    ? "Maximum call stack size exceeded"
    : e instanceof Error
      ? e.message
      : String(e);
  return errorAt(sourceOf, "RUNTIME_ERROR", `Internal error while running: ${what}`, span);
}

/**
 * The value a `catch e` variable holds: the error's own `code`, `message`, `retryable` and,
 * when present, `details` — unchanged (spec §7, §9).
 */
export function errorValue(e: unknown): ObjectValue {
  const err = e as { code?: unknown; message?: unknown; retryable?: unknown; details?: unknown };
  const value: ObjectValue = {
    code: typeof err.code === "string" ? err.code : null,
    message: typeof err.message === "string" ? err.message : String(e),
    retryable: err.retryable === true,
  };
  if (err.details !== undefined) value.details = err.details as Value;
  return value;
}
