/**
 * What travels on the channel (frames.ts) between `luma` and a module's child, and how a
 * thrown error crosses it. Values are JSON data: tool inputs, outputs and `needs` already
 * are (the pipeline validates them as such); a datasource bridge's rows and params are too.
 *
 * An error keeps what the pipeline reads from it (handler-errors.ts): name, message, stack
 * (the handler's file:line), and for an error-shaped throw its code, retryable and details;
 * a refused `process.exit()` in the child comes back as an exit attempt, as in-process.
 */
import { LumaError } from "../../../diagnostics/luma-error";
import type { DiagnosticCode } from "../../../diagnostics/catalog";
import { ExitAttempt, isExitAttempt } from "../../base/exit-guard";
import type { BundledModule } from "../registry/run-bundled-module";

/** What the child needs to load its module: the parent already ran strict's static checks. */
export interface LoadRequest {
  t: "load";
  shownPath: string;
  /** The module's policy, as `"strict"` inside the child (checks and VM context run again there). */
  policy: WirePolicy;
  from: ModuleSource;
}

/**
 * Where the module's code comes from: its file (`luma FILE`: the child's view holds it and
 * what it loads), or a built agent's bundled text, sent on the channel — no file of it exists
 * on the host, so none can be swapped between the build's check and the child's read.
 */
export type ModuleSource =
  | { kind: "file"; realPath: string; rules?: { allow?: string[]; root?: string } }
  | { kind: "bundled"; index: number; module: BundledModule };

export interface WirePolicy {
  allowBuiltins: string[];
  allowEnv: boolean;
  allowEnvNames?: string[];
  allowNetwork: boolean;
  /** Whether the child's seccomp filter lets execve through (seccomp-filter.ts). */
  allowSpawn: boolean;
  maxConcurrency: number;
  projectDir: string;
  configName: string;
}

export type ParentMessage =
  | LoadRequest
  | { t: "call"; id: number; kind: "tool" | "datasource"; name: string; args: unknown[]; signal: boolean; env?: Record<string, string> }
  | { t: "abort"; id: number };

export type ChildMessage =
  | { t: "loaded"; handlers: string[]; datasources: string[] }
  | { t: "load-failed"; error: WireError }
  | { t: "result"; id: number; ok: true; value: unknown }
  | { t: "result"; id: number; ok: false; error: WireError };

export interface WireError {
  name?: string;
  message: string;
  stack?: string;
  code?: string;
  retryable?: boolean;
  details?: unknown;
  /** A LumaError's phase and catalog code (a load refused by the strict checks in the child). */
  phase?: string;
  catalogCode?: string;
  /** Set when the handler called process.exit() and the like (the child's exit guard refused it). */
  exitCall?: string;
  /** Whether the thrown value was an Error (else a plain object or a string). */
  isError?: boolean;
}

export function toWireError(e: unknown): WireError {
  if (isExitAttempt(e)) return { message: e.message, exitCall: e.call, isError: true };
  if (typeof e === "string") return { message: e };
  if (e === null || typeof e !== "object") return { message: String(e) };
  const x = e as Record<string, unknown>;
  const wire: WireError = { message: typeof x.message === "string" ? x.message : "Tool handler failed.", isError: Object.prototype.toString.call(e) === "[object Error]" || e instanceof Error };
  if (typeof x.name === "string") wire.name = x.name;
  if (typeof x.stack === "string") wire.stack = x.stack;
  if (typeof x.code === "string") wire.code = x.code;
  if (typeof x.retryable === "boolean") wire.retryable = x.retryable;
  if (x.details !== undefined) wire.details = safeJson(x.details);
  if (e instanceof LumaError) {
    wire.phase = e.phase;
    if (e.catalogCode) wire.catalogCode = e.catalogCode;
  }
  return wire;
}

/** Details that do not survive JSON are sent as a marker the pipeline rejects as not JSON data. */
const safeJson = (v: unknown): unknown => {
  try {
    return JSON.parse(JSON.stringify(v) ?? "null");
  } catch {
    return { "luma:not-json": String(v) };
  }
};

/** The thrown value again, on the parent's side, in the form handler-errors.ts reads. */
export function fromWireError(wire: WireError): unknown {
  if (wire.exitCall !== undefined) return new ExitAttempt(wire.exitCall);
  if (wire.phase === "startup") {
    return new LumaError({ message: wire.message, phase: "startup", catalogCode: wire.catalogCode as DiagnosticCode | undefined });
  }
  if (typeof wire.code === "string" && typeof wire.retryable === "boolean") {
    return new LumaError({ code: wire.code, message: wire.message, retryable: wire.retryable, details: wire.details });
  }
  if (!wire.isError) return wire.name === undefined && wire.stack === undefined ? { message: wire.message } : wire;
  const error = new Error(wire.message);
  if (wire.name) error.name = wire.name;
  if (wire.stack) error.stack = wire.stack;
  return error;
}
