/**
 * Anthropic Messages (wire notes §3): `POST {base}/v1/messages`, `x-api-key`,
 * `anthropic-version: 2023-06-01`, a required `max_tokens` (default 4096), the system prompt
 * as the top-level `system`.
 *
 * - tools: `{name, description, input_schema, strict}`; forced: `tool_choice {type:"tool",name}`;
 *   strict stays within the per-request budgets (anthropic-strict-budget.ts);
 * - the assistant's `content` array is replayed unchanged; results are one user message of
 *   `tool_result` blocks (`is_error: true` on failures), content = JSON text;
 * - final schema: `output_config.format {type:"json_schema", schema}` (GA, no beta header),
 *   the schema reduced to Anthropic's subset (`anthropic-schema.ts`).
 */
import { toAnthropicSchema } from "./anthropic-schema";
import { withinStrictBudget } from "./anthropic-strict-budget";
import { isStrictCompatible } from "../schema-subset";
import { hasDefinitions } from "../schema-refs";
import type { FinishReason, ToolCall, TurnResult, WireAdapter } from "../provider-types";
import { plus, reported, type UsageReader } from "../read-usage";
import { responseMeta } from "../response-meta";
import type { ReasoningEffort } from "../../../language/model-options";
import { ANTHROPIC_THINKING_BUDGET, takesThinkingBudget } from "../model-options-wire";
import { toolResultText } from "../tool-result-text";
import { anthropicStreaming } from "./anthropic-stream";

/** Anthropic Messages `usage`: cache reads and writes are input too. */
export const anthropicUsage: UsageReader = (u) => ({
  input: plus(reported(u?.input_tokens), u?.cache_creation_input_tokens, u?.cache_read_input_tokens),
  output: reported(u?.output_tokens),
  cached: reported(u?.cache_read_input_tokens),
  cacheWrite: reported(u?.cache_creation_input_tokens),
});

type Obj = Record<string, any>;

export const ANTHROPIC_VERSION = "2023-06-01";
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

const FINISH: Record<string, FinishReason> = {
  tool_use: "tool_calls",
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "refusal",
};

/** Consecutive user turns become one message (tool results first, then text). */
function pushUser(messages: Obj[], blocks: Obj[]): void {
  const last = messages[messages.length - 1];
  if (last?.role === "user") {
    const prev = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
    last.content = [...prev, ...blocks];
  } else messages.push({ role: "user", content: blocks.length === 1 && blocks[0].type === "text" ? blocks[0].text : blocks });
}

export function createAnthropicAdapter(): WireAdapter {
  return {
    family: "anthropic",
    streaming: anthropicStreaming,

    prepareTools(specs) {
      const wire = specs.map((t) => {
        const tool: Obj = { name: t.name };
        if (t.description !== undefined) tool.description = t.description;
        tool.input_schema = toAnthropicSchema(t.parameters);
        // Strict tools take no recursion either; a recursive input goes non-strict (validated locally).
        tool.strict = isStrictCompatible(t.parameters) && !hasDefinitions(t.parameters);
        return tool;
      });
      return { specs, wire };
    },

    prepareFormat(format) {
      return { format, wire: { format: { type: "json_schema", schema: toAnthropicSchema(format.schema) } } };
    },

    buildRequest(model, turn) {
      const messages: Obj[] = [];
      for (const item of turn.transcript) {
        if (item.kind === "user") pushUser(messages, [{ type: "text", text: item.text }]);
        else if (item.kind === "assistant") messages.push((item.native as Obj | undefined) ?? neutralAssistant(item.text, item.toolCalls));
        else {
          pushUser(
            messages,
            item.results.map((r) => {
              const block: Obj = { type: "tool_result", tool_use_id: r.call.id, content: toolResultText(r) };
              if (r.isError) block.is_error = true;
              return block;
            }),
          );
        }
      }
      const body: Obj = { model: model.name, max_tokens: model.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS };
      if (turn.system !== undefined) body.system = turn.system;
      body.messages = messages;
      if (turn.tools) {
        body.tools = withinStrictBudget(turn.tools.wire as Obj[], (turn.format?.wire as Obj | undefined)?.format.schema);
        const c = turn.toolChoice;
        body.tool_choice = c.type === "tool" ? { type: "tool", name: c.name } : { type: c.type };
      }
      if (turn.format) body.output_config = turn.format.wire;
      if (model.temperature !== undefined) body.temperature = model.temperature;
      if (model.stop !== undefined) body.stop_sequences = [...model.stop];
      if (model.reasoningEffort !== undefined) thinkingFields(body, model.name, model.reasoningEffort);
      const headers: Record<string, string> = { "content-type": "application/json", "anthropic-version": ANTHROPIC_VERSION };
      if (model.apiKey) headers["x-api-key"] = model.apiKey;
      return { url: `${model.baseUrl}/v1/messages`, headers, secretHeaders: ["x-api-key", "authorization"], body };
    },

    parseResponse(body): TurnResult {
      const b = body as Obj;
      if (!Array.isArray(b?.content)) throw new Error("no content array in the response");
      let text = "";
      const toolCalls: ToolCall[] = [];
      for (const block of b.content as Obj[]) {
        if (block?.type === "text" && typeof block.text === "string") text += block.text;
        else if (block?.type === "tool_use" && typeof block.name === "string") {
          toolCalls.push({ id: String(block.id ?? ""), nativeId: true, name: block.name, args: block.input ?? {} });
        }
      }
      const u = b.usage ?? {};
      return {
        // An empty assistant turn is not replayed: the API rejects empty content.
        assistant: b.content.length > 0 ? { role: "assistant", content: b.content } : undefined,
        text,
        toolCalls,
        finish: toolCalls.length > 0 ? "tool_calls" : (FINISH[b.stop_reason] ?? "other"),
        refusal: b.stop_reason === "refusal" ? text || "the model refused to answer" : undefined,
        usage: anthropicUsage(u),
        response: responseMeta(b.id, b.model, b.stop_reason),
      };
    },

    errorMessage(body) {
      const m = (body as Obj)?.error?.message;
      return typeof m === "string" ? m : undefined;
    },

    normaliseArgs: (_tool, args) => args,
    normaliseFinal: (_format, value) => value,
  };
}

/**
 * `reasoning_effort` as the model takes it: Claude 4.6 and later think adaptively at an
 * effort level (`output_config.effort`, beside a format already there); earlier models take
 * a token budget, which Anthropic counts inside `max_tokens` — so the budget is added to
 * the answer's limit, and `max_tokens` keeps meaning the answer's tokens.
 */
function thinkingFields(body: Obj, model: string, effort: ReasoningEffort): void {
  if (takesThinkingBudget(model)) {
    const budget = ANTHROPIC_THINKING_BUDGET[effort];
    body.thinking = { type: "enabled", budget_tokens: budget };
    body.max_tokens = (body.max_tokens as number) + budget;
  } else {
    body.thinking = { type: "adaptive" };
    body.output_config = { ...((body.output_config as Obj | undefined) ?? {}), effort };
  }
}

/** A thread's stored assistant turn in Anthropic's shape: its text, then its tool_use blocks. */
function neutralAssistant(text: string | undefined, calls: readonly ToolCall[] | undefined): Obj {
  const content: Obj[] = [];
  if (text) content.push({ type: "text", text });
  for (const c of calls ?? []) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.args ?? {} });
  return { role: "assistant", content };
}
