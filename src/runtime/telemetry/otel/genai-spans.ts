/**
 * Trace events → spans named and attributed as the OpenTelemetry GenAI semantic conventions
 * say (gen-ai-spans.md, gen-ai-agent-spans.md): one table entry per event kind.
 *
 *   provider.request                 → `chat <model>` (CLIENT), one per HTTP try
 *   tool.call, query.call, command.call → `execute_tool <tool>` (INTERNAL)
 *   handoff                          → `execute_tool transfer_to_<agent>` (INTERNAL)
 *   (agent method calls are `invoke_agent <agent>`, made in create-otel-telemetry.ts)
 *
 * A `chat` span carries the request's settings (temperature, max tokens, output type), the
 * server, and what the answer says of itself (`gen_ai.response.id`, `.model`,
 * `.finish_reasons`) as well as its token counts (cache reads and writes, reasoning).
 * Names, ids and counters only. Luma's own facts (side effects, attempts, cache and
 * idempotency outcomes, the declaration name of a model) are `luma.*`; a tool's `metadata`
 * option is one `luma.tool.metadata.<key>` attribute per top-level key (the GenAI
 * conventions have no attribute for it). Content — the
 * request's messages, the answer, a tool's arguments and result — is added only with
 * capture on, from the event's content thunk; no secret is in it (the API key is a header,
 * `needs` values never enter a tool's input).
 */
import type { ContentThunk } from "../telemetry";
import { inputMessages, outputMessages, systemInstructions } from "./genai-messages";
import { SPAN_KIND, STATUS, type Attributes, type AttrValue } from "./span-model";

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

/** A tool's (query's, command's) `description`, by name: `gen_ai.tool.description`. */
export type ToolDescription = (tool: string) => string | undefined;

const json = (v: unknown): string | undefined => (v === undefined ? undefined : JSON.stringify(v));

const chat = (genAiProviderName: GenAiProviderName): SpanMaker => (e, content) => {
  const attributes: Attributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": genAiProviderName(e.provider),
    "gen_ai.request.model": e.model_name,
    "gen_ai.request.temperature": e.temperature,
    "gen_ai.request.max_tokens": e.max_tokens,
    "gen_ai.output.type": e.output_type,
    "gen_ai.response.id": e.response_id,
    "gen_ai.response.model": e.response_model,
    "gen_ai.response.finish_reasons": e.finish_reason == null ? undefined : [e.finish_reason],
    "gen_ai.usage.input_tokens": e.tokens_in,
    "gen_ai.usage.output_tokens": e.tokens_out,
    "gen_ai.usage.cache_read.input_tokens": e.tokens_cached,
    "gen_ai.usage.cache_creation.input_tokens": e.tokens_cache_write,
    "gen_ai.usage.reasoning.output_tokens": e.tokens_reasoning,
    "server.address": e.server_address,
    "server.port": e.server_port,
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
    attributes["gen_ai.system_instructions"] = json(systemInstructions(c.system));
    attributes["gen_ai.input.messages"] = json(inputMessages(c.transcript));
    attributes["gen_ai.output.messages"] = json(outputMessages(c.output));
  }
  return { name: `chat ${e.model_name}`, kind: SPAN_KIND.client, durationMs: e.duration_ms, attributes, status: e.outcome === "ok" ? STATUS.unset : STATUS.error };
};

/**
 * A tool's `metadata` as attributes: `luma.tool.metadata.<key>` per top-level key; a string,
 * number, bool or list of strings as is, anything else (an object, another list, null) as
 * its JSON text.
 */
function metadataAttributes(metadata: unknown, into: Attributes): void {
  if (metadata === null || typeof metadata !== "object") return;
  for (const [key, value] of Object.entries(metadata)) {
    const plain = typeof value === "string" || typeof value === "number" || typeof value === "boolean";
    const strings = Array.isArray(value) && value.every((v) => typeof v === "string");
    into[`luma.tool.metadata.${key}`] = plain || strings ? (value as AttrValue) : JSON.stringify(value);
  }
}

function executeTool(describe: ToolDescription, sideEffects: (e: Obj) => string | undefined) {
  return (e: Obj, content: ContentThunk | undefined): SpanShape => {
    const tool = e.tool ?? e.query ?? e.command ?? e.name;
    const attributes: Attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
      "gen_ai.tool.description": typeof tool === "string" ? describe(tool) : undefined,
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
    metadataAttributes(e.metadata, attributes);
    if (content) {
      const c = content();
      attributes["gen_ai.tool.call.arguments"] = json(c.arguments);
      attributes["gen_ai.tool.call.result"] = json(c.result);
    }
    const name = String(attributes["gen_ai.tool.name"]);
    return { name: `execute_tool ${name}`, kind: SPAN_KIND.internal, durationMs: e.duration_ms, attributes, status: e.outcome === "ok" ? STATUS.unset : STATUS.error };
  };
}

/**
 * A handoff is the model's call of its transfer tool, so it is an `execute_tool` span as any
 * tool call is; the GenAI conventions name no attribute for the agent handed to, so that is
 * Luma's own (`luma.handoff.target`). The transfer runs nothing: the span has no duration.
 */
const handoff: SpanMaker = (e) => ({
  name: `execute_tool ${e.tool}`,
  kind: SPAN_KIND.internal,
  durationMs: 0,
  attributes: {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": e.tool,
    "gen_ai.tool.type": "function",
    "gen_ai.tool.call.id": e.call_id,
    "gen_ai.agent.name": e.from,
    "luma.handoff.target": e.to,
    "luma.handoffs": e.handoffs,
    "luma.max_handoffs": e.max_handoffs,
  },
  status: STATUS.unset,
});

/** Event name → its span; events not listed (ask, validation.soft, run.usage) make none. */
export const spanOfEvent = (genAiProviderName: GenAiProviderName, describe: ToolDescription): Readonly<Record<string, SpanMaker>> => ({
  "provider.request": chat(genAiProviderName),
  "tool.call": executeTool(describe, (e) => e.side_effects),
  "query.call": executeTool(describe, () => "read"),
  "command.call": executeTool(describe, () => "write"),
  handoff,
});
