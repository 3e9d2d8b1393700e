/**
 * `provider: "mcp"`: the model is the MCP client's own (`sampling/createMessage`). A program
 * served by `luma mcp` thinks with its host's model and needs no API key: each provider turn
 * of an `ask` becomes one sampling request to the client that called the method.
 *
 * The request body is the request's params as the protocol defines them (2025-11-25):
 * `messages` (user text, the assistant's turns as the client returned them, tool results as
 * `tool_result` blocks), `systemPrompt`, `maxTokens` (required: the model's `max_tokens`,
 * else 1024), `temperature`, `stopSequences`, `modelPreferences.hints` (the model's `name`),
 * and the ask's `tools` with a `toolChoice`. Sampling has no response format, so a structured
 * answer's JSON Schema is stated in the system prompt and the answer's text is read as JSON,
 * as for any provider. The URL `mcp:sampling/createMessage` is no address: `luma mcp`'s
 * transport (src/mcp/sampling-transport.ts) sends the params to the calling client; any other
 * transport refuses it (transport.ts).
 */
import type {
  PreparedFormat, PreparedTools, ProviderHttpRequest, ResponseFormat, ResolvedModel, StreamDecoder, ToolCall, ToolSpec,
  TranscriptItem, TurnRequest, TurnResult, WireAdapter, WireStreaming,
} from "../provider-types";

import { assertNever } from "../../../syntax/assert-never";

type Obj = Record<string, unknown>;

/** Where a sampling request "goes": read by the transports, never fetched. */
export const SAMPLING_URL = "mcp:sampling/createMessage";

/** `maxTokens` is required by the protocol: sent when the model sets no `max_tokens`. */
export const SAMPLING_MAX_TOKENS = 1024;

const textBlock = (text: string) => ({ type: "text", text });

const assistantOf = (text: string | undefined, calls: readonly ToolCall[] | undefined): Obj => ({
  role: "assistant",
  content: [...(text ? [textBlock(text)] : []), ...(calls ?? []).map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args ?? {} }))],
});

function messagesOf(transcript: readonly TranscriptItem[]): Obj[] {
  return transcript.map((item) => {
    switch (item.kind) {
      case "user":
        return { role: "user", content: textBlock(item.text) };
      case "assistant":
        return (item.native as Obj | undefined) ?? assistantOf(item.text, item.toolCalls);
      case "tool_results":
        return {
          role: "user",
          content: item.results.map((r) => ({ type: "tool_result", toolUseId: r.call.id, content: [textBlock(r.shown ?? JSON.stringify(r.content))], ...(r.isError ? { isError: true } : {}) })),
        };
      default:
        return assertNever(item);
    }
  });
}

const CHOICES = { auto: "auto", none: "none", tool: "required" } as const;

function buildRequest(model: ResolvedModel, turn: TurnRequest): ProviderHttpRequest {
  const format = turn.format?.wire as string | undefined;
  const system = [turn.system, format].filter((s) => s !== undefined && s !== "").join("\n\n");
  const body: Obj = { messages: messagesOf(turn.transcript), maxTokens: model.maxTokens ?? SAMPLING_MAX_TOKENS };
  if (system !== "") body.systemPrompt = system;
  if (model.temperature !== undefined) body.temperature = model.temperature;
  if (model.stop !== undefined) body.stopSequences = [...model.stop];
  if (model.name !== "") body.modelPreferences = { hints: [{ name: model.name }] };
  if (turn.tools !== undefined && turn.tools.specs.length > 0) {
    body.tools = turn.tools.wire;
    body.toolChoice = { mode: CHOICES[turn.toolChoice.type] };
  }
  return { url: SAMPLING_URL, headers: {}, secretHeaders: [], body };
}

const blocksOf = (content: unknown): Obj[] => (Array.isArray(content) ? content : content === undefined ? [] : [content]).filter((b): b is Obj => typeof b === "object" && b !== null);

function parseResponse(body: unknown): TurnResult {
  const b = body as Obj | null;
  if (typeof b !== "object" || b === null || b.role !== "assistant" || b.content === undefined) {
    throw new Error("the MCP client's sampling answer is not a CreateMessageResult (role \"assistant\" with content)");
  }
  const blocks = blocksOf(b.content);
  const text = blocks.filter((x) => x.type === "text").map((x) => String(x.text ?? "")).join("");
  const toolCalls: ToolCall[] = blocks
    .filter((x) => x.type === "tool_use")
    .map((x) => ({ id: String(x.id), nativeId: true, name: String(x.name), args: x.input ?? {} }));
  const stop = b.stopReason;
  const finish = toolCalls.length > 0 ? "tool_calls" : stop === "maxTokens" ? "length" : stop === undefined || stop === "endTurn" || stop === "stopSequence" ? "stop" : "other";
  return { assistant: { role: "assistant", content: b.content }, text, toolCalls, finish, usage: {}, response: { model: typeof b.model === "string" ? b.model : undefined, finishReason: typeof stop === "string" ? stop : undefined } };
}

/** Sampling does not stream: a "streamed" request is the same one, answered as one event. */
const streaming: WireStreaming = {
  request: (req) => req,
  decoder(): StreamDecoder {
    let data = "";
    return {
      event: (_name, chunk) => void (data += chunk),
      finish: () => JSON.parse(data),
    };
  },
};

export function createSamplingAdapter(): WireAdapter {
  return {
    streaming,
    family: "mcp",
    prepareTools: (specs: readonly ToolSpec[]): PreparedTools => ({
      specs,
      wire: specs.map((s) => ({ name: s.name, ...(s.description ? { description: s.description } : {}), inputSchema: s.parameters })),
    }),
    prepareFormat: (format: ResponseFormat): PreparedFormat => ({
      format,
      wire: `Answer with one JSON value, and nothing else, of this JSON Schema (${format.name}): ${JSON.stringify(format.schema)}`,
    }),
    buildRequest,
    parseResponse,
    errorMessage: (body) => {
      const m = (body as { error?: { message?: unknown } } | null)?.error?.message;
      return typeof m === "string" ? m : undefined;
    },
    normaliseArgs: (_tool, args) => args,
    normaliseFinal: (_format, value) => value,
  };
}
