/**
 * The trace event of the tool pipeline (spec §14): exactly one `tool.call` per call (the
 * `validation.soft` event of a soft output issue is runtime/base/soft-issue-report.ts's). Built
 * from names, counters and flags only: no input, no output, no `needs` value, no
 * environment value can reach it. The one written value is the tool's `metadata` option, a
 * constant of the program (`null` when the tool declares none).
 */
import type { CallContext } from "../steps/call-context";

export interface ToolCallEvent {
  event: "tool.call";
  tool: string;
  agent: string | null;
  mode: "direct" | "native";
  /** A native call's id from the model's turn; null for direct calls. */
  call_id: string | null;
  side_effects: "none" | "read" | "write";
  attempts: number;
  duration_ms: number;
  outcome: "ok" | "error";
  code: string | null;
  retryable: boolean | null;
  cache_hit: boolean;
  single_flight: boolean;
  idempotent_replay: boolean;
  /** Present for calls made by a program (durable runs). */
  step?: string;
  journal_replay?: boolean;
  /** The tool's `metadata` option; null when it has none (every event has the same fields). */
  metadata: Readonly<Record<string, unknown>> | null;
}

/** The fields every call event shares (tool, query and command calls): who, how, how it ended. */
export const callOutcomeFields = (ctx: CallContext, durationMs: number, error?: { code?: string; retryable: boolean }) => ({
  agent: ctx.plan.agent.name ?? null,
  mode: ctx.req.mode,
  call_id: ctx.req.callId ?? null,
  attempts: ctx.attempts,
  duration_ms: durationMs,
  outcome: error === undefined ? ("ok" as const) : ("error" as const),
  code: error === undefined ? null : (error.code ?? null),
  retryable: error === undefined ? null : error.retryable,
  // A call made by a program carries its step id (the journal's key, `luma runs show`), and
  // says whether a journal answered it from a receipt (nothing ran: durable runs).
  ...(ctx.req.stepId === undefined ? undefined : { step: ctx.req.stepId, journal_replay: ctx.journalReplayed }),
});

export const toolCallEvent = (
  ctx: CallContext,
  durationMs: number,
  error?: { code?: string; retryable: boolean },
): ToolCallEvent => ({
  event: "tool.call",
  tool: ctx.plan.tool.name,
  ...callOutcomeFields(ctx, durationMs, error),
  side_effects: ctx.plan.tool.options.sideEffects,
  cache_hit: ctx.cacheHit,
  single_flight: ctx.singleFlight,
  idempotent_replay: ctx.idempotentReplay,
  metadata: ctx.plan.tool.options.metadata ?? null,
});
