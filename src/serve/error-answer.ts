/**
 * How `luma serve` answers a failure (issue #26 §4): the LumaError as
 * `{ "error": { "code", "message", "retryable" } }`, with the HTTP status its code means —
 * one table, so every endpoint says the same thing for the same failure. `details` never go
 * out: Luma's own codes carry internals there, and a handler's may carry data.
 */
import { LumaError } from "../diagnostics/luma-error";

/** The status of each code that is not a plain 500 (the table). */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  // 400: the input is invalid.
  REQUEST_INVALID: 400,
  TOOL_INPUT_INVALID: 400,
  VALUE_INVALID: 400,
  // 401: no (or a wrong) bearer token.
  REQUEST_UNAUTHORIZED: 401,
  // 403: refused by policy (a browser page of another origin, before anything runs).
  REQUEST_FORBIDDEN: 403,
  TOOL_PERMISSION_DENIED: 403,
  TOOL_CONTEXT_INVALID: 403,
  TOOL_NOT_ACTIVE: 403,
  // 404: no such agent or method.
  AGENT_NOT_FOUND: 404,
  // 409: another writer got there first.
  THREAD_CONFLICT: 409,
  TOOL_IDEMPOTENCY_CONFLICT: 409,
  // 502: the model provider failed, or answered what cannot be used.
  PROVIDER_ERROR: 502,
  ASK_OUTPUT_INVALID: 502,
  // 504: something did not answer in time.
  TOOL_TIMEOUT: 504,
};

const detail = (e: LumaError, key: string): unknown =>
  typeof e.details === "object" && e.details !== null ? (e.details as Record<string, unknown>)[key] : undefined;

/** The HTTP status for `e`: a provider's timeout is 504, a body over the limit 413 (too slow: 408), else the table's, else 500. */
export function statusOf(e: LumaError): number {
  if (e.code === "PROVIDER_ERROR" && detail(e, "timeout_ms") !== undefined) return 504;
  if (e.code === "REQUEST_INVALID" && detail(e, "max_bytes") !== undefined) return 413;
  if (e.code === "REQUEST_INVALID" && detail(e, "timeout_ms") !== undefined) return 408;
  return STATUS_BY_CODE[e.code ?? ""] ?? 500;
}

export interface ErrorBody {
  error: { code: string; message: string; retryable: boolean };
}

export const errorBody = (e: LumaError): ErrorBody => ({ error: { code: e.code ?? "RUNTIME_ERROR", message: e.message, retryable: e.retryable } });

/** The JSON answer for `e`, with `headers` (CORS) added. */
export const errorResponse = (e: LumaError, headers: Record<string, string> = {}): Response =>
  Response.json(errorBody(e), { status: statusOf(e), headers });

/** A request the server refuses before anything runs. */
export const requestInvalid = (message: string, details?: Record<string, unknown>): LumaError =>
  new LumaError({ code: "REQUEST_INVALID", message, details });

export const agentNotFound = (message: string): LumaError => new LumaError({ code: "AGENT_NOT_FOUND", message });
