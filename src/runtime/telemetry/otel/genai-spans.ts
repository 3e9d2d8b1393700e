/**
 * Trace events → spans named and attributed as the OpenTelemetry GenAI semantic conventions
 * say (gen-ai-spans.md, gen-ai-agent-spans.md): one table entry per event kind.
 *
 *   provider.request                 → `chat <model>` (CLIENT), one per HTTP try
 *   tool.call, query.call, command.call → `execute_tool <tool>` (INTERNAL)
 *   (agent method calls are `invoke_agent <agent>`, made in create-otel-telemetry.ts)
 *
 * Names, ids and counters only. Luma's own facts (side effects, attempts, cache and
 * idempotency outcomes, the declaration name of a model) are `luma.*`. Content — the
 * request's messages, the answer, a tool's arguments and result — is added only with
 * capture on, from the event's content thunk; no secret is in it (the API key is a header,
 * `needs` values never enter a tool's input).
 */
import type { ContentThunk } from "../telemetry";
import { SPAN_KIND, STATUS, type Attributes } from "./span-model";

type Obj = Record<string, any>;

export interface SpanShape {
  name: string;
  kind: number;
  durationMs: number;
  attributes: Attributes;
  status: number;
}

/** One event kind's span. */
type SpanMaker = (e: Obj, content: ContentThunk | undefined) => SpanShape;

/**
 * Luma's provider name → its `gen_ai.provider.name` value: each provider family's record says
 * (`telemetryName`, providers/families.ts), handed in by start-program.ts so that telemetry,
 * below the providers, imports none of them.
 */
export type GenAiProviderName = (provider: string) => string;

const json = (v: unknown): string | undefined => (v === undefined ? undefined : JSON.stringify(v));

const chat = (genAiProviderName: GenAiProviderName): SpanMaker => (e, content) => {
  const attributes: Attributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": genAiProviderName(e.provider),
    "gen_ai.request.model": e.model_name,
    "gen_ai.usage.input_tokens": e.tokens_in,
    "gen_ai.usage.output_tokens": e.tokens_out,
    "gen_ai.usage.cache_read.input_tokens": e.tokens_cached,
    "luma.usage.reasoning_tokens": e.tokens_reasoning,
    "gen_ai.agent.name": e.agent,
    "http.response.status_code": e.status,
    "error.type": e.outcome === "ok" ? null : e.status !== null ? String(e.status) : (e.code ?? "PROVIDER_ERROR"),
    "luma.model": e.model,
    "luma.turn": e.turn,
    "luma.attempt": e.attempt,
    "luma.request_id": e.request_id,
  };
  if (content) {
    const c = content();
    const body = (c.input ?? {}) as Obj;
    attributes["gen_ai.system_instructions"] = json(c.system);
    attributes["gen_ai.input.messages"] = json(body.messages ?? body.input ?? body.contents);
    attributes["gen_ai.output.messages"] = typeof c.output === "string" ? c.output : json(c.output);
  }
  return { name: `chat ${e.model_name}`, kind: SPAN_KIND.client, durationMs: e.duration_ms, attributes, status: e.outcome === "ok" ? STATUS.unset : STATUS.error };
};

function executeTool(sideEffects: (e: Obj) => string | undefined) {
  return (e: Obj, content: ContentThunk | undefined): SpanShape => {
    const attributes: Attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": e.tool ?? e.query ?? e.command ?? e.name,
      "gen_ai.tool.type": "function",
      "gen_ai.tool.call.id": e.call_id,
      "gen_ai.agent.name": e.agent,
      "error.type": e.outcome === "ok" ? null : (e.code ?? "RUNTIME_ERROR"),
      "luma.tool.mode": e.mode,
      "luma.tool.side_effects": sideEffects(e),
      "luma.attempts": e.attempts,
      "luma.retryable": e.retryable,
      "luma.cache_hit": e.cache_hit,
      "luma.single_flight": e.single_flight,
      "luma.idempotent_replay": e.idempotent_replay,
    };
    if (content) {
      const c = content();
      attributes["gen_ai.tool.call.arguments"] = json(c.arguments);
      attributes["gen_ai.tool.call.result"] = json(c.result);
    }
    const name = String(attributes["gen_ai.tool.name"]);
    return { name: `execute_tool ${name}`, kind: SPAN_KIND.internal, durationMs: e.duration_ms, attributes, status: e.outcome === "ok" ? STATUS.unset : STATUS.error };
  };
}

/** Event name → its span; events not listed (ask, validation.soft, run.usage) make none. */
export const spanOfEvent = (genAiProviderName: GenAiProviderName): Readonly<Record<string, SpanMaker>> => ({
  "provider.request": chat(genAiProviderName),
  "tool.call": executeTool((e) => e.side_effects),
  "query.call": executeTool(() => "read"),
  "command.call": executeTool(() => "write"),
});
