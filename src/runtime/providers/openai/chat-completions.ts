/**
 * The OpenAI Chat Completions family (wire notes §1–2): `openai`, `openai-compatible`
 * (Ollama, vLLM, llama.cpp server) and `azure` share one body and response format; a variant
 * supplies what differs — URL, auth header, the max-tokens field, and how a forced tool and
 * "no more tools" are said. OpenAI's variant is here; Azure's and the compatible servers' are
 * in their families' folders (`azure/azure-chat.ts`, `openai-compatible/compatible-chat.ts`).
 *
 * - tools: `{type:"function", function:{name, description, parameters, strict}}`, the schema
 *   in strict form (optional → required + nullable; nulls dropped on return); with a strict
 *   tool, `parallel_tool_calls: false` (OpenAI and Azure);
 * - tool results: one `role:"tool"` message per call, content = JSON text;
 * - final schema: `response_format: {type:"json_schema", json_schema:{name, strict, schema}}`;
 * - the assistant turn is replayed as received (`content` + non-empty `tool_calls`).
 */
import { dropOptionalNulls, toOpenAiStrict } from "./openai-strict-schema";
import { isStrictCompatible } from "../schema-subset";
import type {
  FinishReason,
  PreparedFormat,
  PreparedTools,
  ProviderHttpRequest,
  ResolvedModel,
  ResponseFormat,
  ToolCall,
  ToolChoice,
  ToolSpec,
  TurnRequest,
  TurnResult,
  WireAdapter,
} from "../provider-types";
import { tryParseJson } from "../safe-json";
import { reported, type UsageReader } from "../read-usage";
import { responseMeta } from "../response-meta";
import { toolResultText } from "../tool-result-text";
import { chatStreaming } from "./chat-stream";

/** Chat Completions `usage` (OpenAI, Azure, compatible servers). */
export const chatCompletionsUsage: UsageReader = (u) => ({
  input: reported(u?.prompt_tokens),
  output: reported(u?.completion_tokens),
  cached: reported(u?.prompt_tokens_details?.cached_tokens),
  reasoning: reported(u?.completion_tokens_details?.reasoning_tokens),
});

type Obj = Record<string, any>;

/** What differs between OpenAI, compatible servers and Azure. */
export interface OpenAiVariant {
  url(model: ResolvedModel): string;
  authHeaders(model: ResolvedModel): Record<string, string>;
  maxTokensField: "max_completion_tokens" | "max_tokens" | ((model: ResolvedModel) => "max_completion_tokens" | "max_tokens");
  /**
   * Compatible servers: llama.cpp takes only string tool choices and Ollama ignores them, so a
   * forced tool is `"required"` with that tool alone, and "none" sends no tools at all.
   */
  stringChoicesOnly: boolean;
  /**
   * OpenAI and Azure: with a strict tool in the request, `parallel_tool_calls: false` — the
   * function-calling guide says strict schemas are not guaranteed for parallel calls.
   * Compatible servers differ on the field, so it is not sent to them.
   */
  serialStrictTools: boolean;
}

export const openAiVariant: OpenAiVariant = {
  url: (m) => `${m.baseUrl}/chat/completions`,
  authHeaders: (m): Record<string, string> => (m.apiKey ? { authorization: `Bearer ${m.apiKey}` } : {}),
  maxTokensField: "max_completion_tokens",
  stringChoicesOnly: false,
  serialStrictTools: true,
};

const FINISH: Record<string, FinishReason> = {
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  stop: "stop",
  length: "length",
  content_filter: "refusal",
};

/** `json_schema.name` must match [A-Za-z0-9_-]{1,64}. */
const wireName = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "Result";

export function createOpenAiAdapter(variant: OpenAiVariant): WireAdapter {
  const toolWire = (t: ToolSpec) => {
    const parameters = toOpenAiStrict(t.parameters);
    const fn: Obj = { name: t.name };
    if (t.description !== undefined) fn.description = t.description;
    fn.parameters = parameters;
    fn.strict = isStrictCompatible(parameters);
    return { type: "function", function: fn };
  };

  const choiceFields = (body: Obj, tools: PreparedTools, choice: ToolChoice): void => {
    if (choice.type === "none" && variant.stringChoicesOnly) return;
    if (choice.type === "tool" && variant.stringChoicesOnly) {
      body.tools = [tools.wireByName!.get(choice.name)];
      body.tool_choice = "required";
      return;
    }
    body.tools = tools.wire;
    body.tool_choice = choice.type === "tool" ? { type: "function", function: { name: choice.name } } : choice.type;
    if (variant.serialStrictTools && (tools.wire as Obj[]).some((t) => t.function.strict === true)) body.parallel_tool_calls = false;
  };

  return {
    family: "openai",
    streaming: chatStreaming,

    prepareTools(specs): PreparedTools {
      const wire = specs.map(toolWire);
      const wireByName = new Map(specs.map((s, i) => [s.name, wire[i]] as const));
      return { specs, wire, wireByName };
    },

    prepareFormat(format): PreparedFormat {
      const schema = toOpenAiStrict(format.schema);
      return {
        format,
        wire: { type: "json_schema", json_schema: { name: wireName(format.name), strict: isStrictCompatible(schema), schema } },
      };
    },

    buildRequest(model: ResolvedModel, turn: TurnRequest): ProviderHttpRequest {
      const messages: Obj[] = [];
      if (turn.system !== undefined) messages.push({ role: "system", content: turn.system });
      for (const item of turn.transcript) {
        if (item.kind === "user") messages.push({ role: "user", content: item.text });
        else if (item.kind === "assistant") messages.push((item.native as Obj | undefined) ?? neutralAssistant(item.text, item.toolCalls));
        else for (const r of item.results) messages.push({ role: "tool", tool_call_id: r.call.id, content: toolResultText(r) });
      }
      const body: Obj = { model: model.name, messages };
      if (turn.tools) choiceFields(body, turn.tools, turn.toolChoice);
      if (turn.format) body.response_format = turn.format.wire;
      if (model.temperature !== undefined) body.temperature = model.temperature;
      if (model.topP !== undefined) body.top_p = model.topP;
      if (model.seed !== undefined) body.seed = model.seed;
      if (model.stop !== undefined) body.stop = [...model.stop];
      if (model.reasoningEffort !== undefined) body.reasoning_effort = model.reasoningEffort;
      if (model.maxTokens !== undefined) {
        const field = typeof variant.maxTokensField === "function" ? variant.maxTokensField(model) : variant.maxTokensField;
        body[field] = model.maxTokens;
      }
      return {
        url: variant.url(model),
        headers: { "content-type": "application/json", ...variant.authHeaders(model) },
        secretHeaders: ["authorization", "api-key"],
        body,
      };
    },

    parseResponse(body: unknown): TurnResult {
      const choice = (body as Obj)?.choices?.[0];
      const msg = choice?.message;
      if (typeof msg !== "object" || msg === null) throw new Error("no choices[0].message in the response");
      const rawCalls: Obj[] = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
      const toolCalls = rawCalls.filter((c) => c?.function && typeof c.function.name === "string").map(readCall);
      const text = typeof msg.content === "string" ? msg.content : Array.isArray(msg.content) ? msg.content.map((p: Obj) => p?.text ?? "").join("") : "";
      const assistant: Obj = { role: "assistant", content: msg.content ?? null };
      // Never send `tool_calls: []` back (a 400 at OpenAI).
      if (rawCalls.length > 0) assistant.tool_calls = rawCalls;
      const usage = (body as Obj).usage;
      return {
        // An empty assistant turn (a refusal) is not replayed: providers reject empty content.
        assistant: rawCalls.length > 0 || text !== "" ? assistant : undefined,
        text,
        toolCalls,
        finish: toolCalls.length > 0 ? "tool_calls" : (FINISH[choice.finish_reason] ?? "other"),
        refusal: typeof msg.refusal === "string" && msg.refusal !== "" ? msg.refusal : undefined,
        usage: chatCompletionsUsage(usage),
        response: responseMeta((body as Obj).id, (body as Obj).model, choice.finish_reason),
      };
    },

    errorMessage(body: unknown): string | undefined {
      const b = body as Obj;
      const m = b?.error?.message ?? b?.message;
      return typeof m === "string" ? m : undefined;
    },

    normaliseArgs(tool: ToolSpec, args: unknown): unknown {
      dropOptionalNulls(tool.parameters, args);
      return args;
    },

    normaliseFinal(format: ResponseFormat, value: unknown): unknown {
      dropOptionalNulls(format.schema, value);
      return value;
    },
  };
}

function readCall(c: Obj): ToolCall {
  const raw = c.function.arguments;
  const call: ToolCall = { id: String(c.id ?? ""), nativeId: true, name: c.function.name, args: undefined };
  if (raw !== null && typeof raw === "object") call.args = raw;
  else if (raw === undefined || raw === "") call.args = {};
  else {
    const parsed = tryParseJson(String(raw));
    if (parsed.ok) call.args = parsed.value;
    else call.argsError = parsed.error;
  }
  return call;
}

/** A thread's stored assistant turn as a Chat Completions assistant message. */
function neutralAssistant(text: string | undefined, calls: readonly ToolCall[] | undefined): Obj {
  const message: Obj = { role: "assistant", content: text || null };
  if (calls && calls.length > 0) {
    message.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) } }));
  }
  return message;
}
