/**
 * Every error Luma raises is a LumaError `{ code, message, retryable, details? }` (spec §9).
 *
 * `code` is one of the spec's codes for runtime errors (TOOL_INPUT_INVALID, RUNTIME_ERROR…)
 * and absent for startup errors that the spec prints without one
 * (`Error: 'calculate' is not registered in the tool registry.`). `phase` tells the CLI which
 * exit code the error means: "startup" (rejected before running, exit 2), "runtime" (exit 1) or
 * "pending" (a journaled run waits for an approval, exit 75).
 *
 * `catalogCode` is separate from `code`: the stable diagnostic code of a startup error
 * (E04xx config, E05xx tool modules, E06xx start-up; `luma explain CODE`). The spec's
 * messages stay byte for byte on their line; the CLI shows the code under them. A startup
 * error cannot be made without one, unless it carries diagnostics (they have their own).
 *
 * `site` is where in the program a runtime error surfaced: the innermost tool call, query,
 * `ask` or expression the interpreter was running. It is set once (`locateError`), by the
 * first frame that sees the error, so an error crossing agent methods keeps its origin; the
 * CLI renders it as a source excerpt under the `Error: [CODE] message` line, which stays byte
 * for byte. It is not part of the error's value (`catch e` sees code/message/retryable/details).
 */
import type { Span } from "./span";
import type { Diagnostic } from "./diagnostic";
import type { DiagnosticCode } from "./catalog";

/** The spec's runtime codes (§9); each has a catalog entry (`luma explain TOOL_TIMEOUT`). */
export const ERROR_CODES = [
  "TOOL_NOT_FOUND",
  "TOOL_PERMISSION_DENIED",
  "TOOL_INPUT_INVALID",
  "TOOL_CONTEXT_INVALID",
  "TOOL_IDEMPOTENCY_CONFLICT",
  "TOOL_TIMEOUT",
  "TOOL_OUTPUT_INVALID",
  "TOOL_ERROR_INVALID",
  "TOOL_CIRCUIT_OPEN",
  "TOOL_RATE_LIMITED",
  "TOOL_HANDLER_ERROR",
  "TOOL_SANDBOX_FAILED",
  "CLIENT_TOOL_UNANSWERED",
  "TOOL_NOT_ACTIVE",
  "AGENT_DEPTH_EXCEEDED",
  "BUDGET_EXCEEDED",
  "ASK_OUTPUT_INVALID",
  "PROVIDER_ERROR",
  "QUERY_ROW_INVALID",
  "VALUE_INVALID",
  "THREAD_CONFLICT",
  "RUNTIME_ERROR",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

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
  /** The catalog code of a startup error, e.g. `E0601` (not the spec's runtime `code`); one the catalog has. */
  catalogCode?: DiagnosticCode;
  /** What LUMA_DEBUG=1 prints instead of this error's own stack: a crashed handler's. */
  debugStack?: string;
}

export class LumaError extends Error {
  readonly code?: string;
  readonly retryable: boolean;
  readonly details?: unknown;
  readonly phase: ErrorPhase;
  readonly diagnostics?: Diagnostic[];
  readonly catalogCode?: DiagnosticCode;
  /** Where the error surfaced in the program (set once, by `locateError`). */
  site?: Span;
  readonly debugStack?: string;

  constructor(init: LumaErrorInit) {
    super(init.message);
    this.name = "LumaError";
    this.code = init.code;
    this.retryable = init.retryable ?? false;
    this.details = init.details;
    this.phase = init.phase ?? "runtime";
    this.diagnostics = init.diagnostics;
    this.catalogCode = init.catalogCode;
    this.debugStack = init.debugStack;
  }

  /** The CLI's one-line form: `Error: [CODE] message`, or `Error: message` without a code. */
  toLine(): string {
    return this.code ? `Error: [${this.code}] ${this.message}` : `Error: ${this.message}`;
  }
}

/** A runtime error with a spec code. */
export const runtimeError = (code: ErrorCode, message: string, extra: Partial<LumaErrorInit> = {}): LumaError =>
  new LumaError({ code, message, phase: "runtime", ...extra });

/** What a startup error must carry besides its message: its catalog code, or diagnostics that have theirs. */
export type StartupErrorExtra = Partial<LumaErrorInit> & ({ catalogCode: DiagnosticCode } | { diagnostics: Diagnostic[] });

/** An error that rejects the program before it runs (exit code 2). */
export const startupError = (message: string, extra: StartupErrorExtra): LumaError =>
  new LumaError({ message, phase: "startup", ...extra });

export const isLumaError = (e: unknown): e is LumaError => e instanceof LumaError;

/** Gives a runtime error its site unless an inner frame already did; returns the error. */
export function locateError<E>(e: E, span: Span): E {
  if (e instanceof LumaError && e.site === undefined && e.phase !== "startup") e.site = span;
  return e;
}
