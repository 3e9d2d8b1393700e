/**
 * Every error Luma raises is a LumaError `{ code, message, retryable, details? }` (spec §9).
 *
 * `code` is one of the spec's codes for runtime errors (TOOL_INPUT_INVALID, RUNTIME_ERROR…)
 * and absent for startup errors that the spec prints without one
 * (`Error: 'calculate' is not registered in the tool registry.`). `phase` tells the CLI which
 * exit code the error means: "startup" (rejected before running, exit 2), "runtime" (exit 1) or
 * "pending" (a journaled run waits for an approval, exit 75).
 */
import type { Diagnostic } from "./diagnostic";

export type ErrorCode =
  | "TOOL_NOT_FOUND"
  | "TOOL_PERMISSION_DENIED"
  | "TOOL_INPUT_INVALID"
  | "TOOL_CONTEXT_INVALID"
  | "TOOL_IDEMPOTENCY_CONFLICT"
  | "TOOL_TIMEOUT"
  | "TOOL_OUTPUT_INVALID"
  | "TOOL_ERROR_INVALID"
  | "TOOL_CIRCUIT_OPEN"
  | "TOOL_RATE_LIMITED"
  | "TOOL_HANDLER_ERROR"
  | "ASK_OUTPUT_INVALID"
  | "PROVIDER_ERROR"
  | "QUERY_ROW_INVALID"
  | "VALUE_INVALID"
  | "RUNTIME_ERROR";

/** "pending": a journaled run stopped to wait for a person (an approval); exit 75. */
export type ErrorPhase = "startup" | "runtime" | "pending";

export interface LumaErrorInit {
  /** A spec code, or any string a handler's LumaToolError carries. Absent for plain startup errors. */
  code?: string;
  message: string;
  retryable?: boolean;
  details?: unknown;
  phase?: ErrorPhase;
  /** Parse/check diagnostics behind a startup error, rendered by the CLI with source excerpts. */
  diagnostics?: Diagnostic[];
}

export class LumaError extends Error {
  readonly code?: string;
  readonly retryable: boolean;
  readonly details?: unknown;
  readonly phase: ErrorPhase;
  readonly diagnostics?: Diagnostic[];

  constructor(init: LumaErrorInit) {
    super(init.message);
    this.name = "LumaError";
    this.code = init.code;
    this.retryable = init.retryable ?? false;
    this.details = init.details;
    this.phase = init.phase ?? "runtime";
    this.diagnostics = init.diagnostics;
  }

  /** The CLI's one-line form: `Error: [CODE] message`, or `Error: message` without a code. */
  toLine(): string {
    return this.code ? `Error: [${this.code}] ${this.message}` : `Error: ${this.message}`;
  }
}

/** A runtime error with a spec code. */
export const runtimeError = (code: ErrorCode, message: string, extra: Partial<LumaErrorInit> = {}): LumaError =>
  new LumaError({ code, message, phase: "runtime", ...extra });

/** An error that rejects the program before it runs (exit code 2). */
export const startupError = (message: string, extra: Partial<LumaErrorInit> = {}): LumaError =>
  new LumaError({ message, phase: "startup", ...extra });

export const isLumaError = (e: unknown): e is LumaError => e instanceof LumaError;
