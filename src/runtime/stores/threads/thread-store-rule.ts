/**
 * The start-up rule of stored threads (issue #26 §1, E0660): a program that calls
 * `thread(id)` with no `"threads"` store in luma.config.json would fail at every such call,
 * so it does not start — and `luma check` says so too (program-rules.ts). The error names
 * the first call (file:line:col) and the config key.
 */
import { error } from "../../../diagnostics/diagnostic";
import { startupError, type LumaError } from "../../../diagnostics/luma-error";
import type { LumaConfig } from "../../../config/config-types";
import { exprsOf } from "../../../language/walk";
import { resolutionOf } from "../../../language/name-resolution";
import type { Expr, Program } from "../../../syntax/ast";

/** The first `thread(id)` call of the program (a builtin call with an argument), if any. */
export function firstStoredThreadCall(program: Program): Extract<Expr, { kind: "Call" }> | undefined {
  const resolution = resolutionOf(program);
  for (const unit of resolution.units) {
    for (const call of exprsOf(unit.flat, "Call")) {
      if (call.callee.kind === "Name" && call.callee.name === "thread" && call.args.length > 0 && resolution.callsBuiltin(call.callee)) return call;
    }
  }
  return undefined;
}

export function checkThreadStore(program: Program, config: LumaConfig): LumaError | undefined {
  if (config.threads) return undefined;
  const call = firstStoredThreadCall(program);
  if (!call) return undefined;
  const message = `thread(id) opens a stored thread, but luma.config.json configures no "threads" store.`;
  const hints = ['add one: { "threads": { "backend": "sqlite" } } (or "file", "postgres", "redis")', "or use thread() for a thread kept in memory for the run"];
  return startupError(message, { diagnostics: [error(message, call.span, { code: "E0660", hints })] });
}
