/**
 * The OpenAI Responses API (`POST {base}/responses`), for `provider: "openai"` models with
 * `api: "responses"` (the default stays Chat Completions: `api: "chat"`). The same six-step
 * `ask` flow, another wire format:
 *
 * - instructions: the agent's `system`; input: a list of items — user text as
 *   `{role:"user", content}`, each assistant turn's output items replayed as received
 *   (reasoning items included, so a reasoning model keeps its chain between turns), each
 *   tool result as `{type:"function_call_output", call_id, output}` (JSON text);
 * - tools: `{type:"function", name, description, parameters, strict}` (flat, not under
 *   `function`), the schema in the same strict form as Chat Completions; `tool_choice`
 *   "auto" | "none" | `{type:"function", name}`; `parallel_tool_calls: false` with strict
 *   tools (strict schemas are not guaranteed for parallel calls);
 * - final schema: `text.format = {type:"json_schema", name, schema, strict}`;
 * - stateless: `store: false` — nothing is kept at OpenAI between turns, the whole input is
 *   sent each time — and, for a reasoning model, `include: ["reasoning.encrypted_content"]`,
 *   so reasoning items come back in a form that can be replayed without a stored response.
 *   OpenAI answers 400 to that `include` for a model that does not reason (gpt-4o,
 *   gpt-4o-mini, gpt-4.1): it is sent for the o-series and the gpt-5 family by name, and the
 *   model key `reasoning_model` decides either way.
 */
import { dropOptionalNulls, toOpenAiStrict } from "./openai-strict-schema";
import { isStrictCompatible } from "../schema-subset";
import type { FinishReason, PreparedFormat, PreparedTools, ResolvedModel, ToolCall, ToolSpec, TurnRequest, TurnResult, WireAdapter } from "../provider-types";
import { tryParseJson } from "../safe-json";
import { reported, type UsageReader } from "../read-usage";
import { responseMeta } from "../response-meta";
import { toolResultText } from "../tool-result-text";
import { responsesStreaming } from "./responses-stream";

/** Responses API `usage`. */
export const responsesUsage: UsageReader = (u) => ({
  input: reported(u?.input_tokens),
  output: reported(u?.output_tokens),
  cached: reported(u?.input_tokens_details?.cached_tokens),
  reasoning: reported(u?.output_tokens_details?.reasoning_tokens),
});

type Obj = Record<string, any>;

/** The families that reason, by model id: `o1`, `o3-mini`, `o4-mini`, `gpt-5`, `gpt-5.4-mini`… */
const REASONING_NAME = /^(o\d|gpt-5)(\b|[-.])/i;

/** Whether to ask for encrypted reasoning: the `reasoning_model` key, else the model's name. */
export const isReasoningModel = (model: Pick<ResolvedModel, "name" | "reasoningModel">): boolean =>
  model.reasoningModel ?? REASONING_NAME.test(model.name);

/** `text.format.name` must match [A-Za-z0-9_-]{1,64}. */
const wireName = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "Result";

const INCOMPLETE: Record<string, FinishReason> = { max_output_tokens: "length", content_filter: "refusal" };

function toolWire(t: ToolSpec): Obj {
  const parameters = toOpenAiStrict(t.parameters);
  const tool: Obj = { type: "function", name: t.name };
  if (t.description !== undefined) tool.description = t.description;
  tool.parameters = parameters;
  tool.strict = isStrictCompatible(parameters);
  return tool;
}

function readCall(item: Obj): ToolCall {
  const call: ToolCall = { id: String(item.call_id ?? ""), nativeId: true, name: item.name, args: undefined };
  const raw = item.arguments;
  if (raw === undefined || raw === "") call.args = {};
  else {
    const parsed = tryParseJson(String(raw));
    if (parsed.ok) call.args = parsed.value;
    else call.argsError = parsed.error;
  }
  return call;
}

export function createOpenAiResponsesAdapter(): WireAdapter {
  return {
    family: "openai",
    streaming: responsesStreaming,

    prepareTools(specs): PreparedTools {
      return { specs, wire: specs.map(toolWire) };
    },

    prepareFormat(format): PreparedFormat {
      const schema = toOpenAiStrict(format.schema);
      return { format, wire: { type: "json_schema", name: wireName(format.name), schema, strict: isStrictCompatible(schema) } };
    },

    buildRequest(model: ResolvedModel, turn: TurnRequest) {
      const input: Obj[] = [];
      for (const item of turn.transcript) {
        if (item.kind === "user") input.push({ role: "user", content: item.text });
        else if (item.kind === "assistant") input.push(...((item.native as Obj[] | undefined) ?? neutralOutput(item.text, item.toolCalls)));
        else for (const r of item.results) input.push({ type: "function_call_output", call_id: r.call.id, output: toolResultText(r) });
      }
      const body: Obj = { model: model.name };
      if (turn.system !== undefined) body.instructions = turn.system;
      body.input = input;
      if (turn.tools) {
        const tools = turn.tools.wire as Obj[];
        body.tools = tools;
        const choice = turn.toolChoice;
        body.tool_choice = choice.type === "tool" ? { type: "function", name: choice.name } : choice.type;
        if (tools.some((t) => t.strict === true)) body.parallel_tool_calls = false;
      }
      if (turn.format) body.text = { format: turn.format.wire };
      if (model.temperature !== undefined) body.temperature = model.temperature;
      if (model.topP !== undefined) body.top_p = model.topP;
      if (model.reasoningEffort !== undefined) body.reasoning = { effort: model.reasoningEffort };
      if (model.maxTokens !== undefined) body.max_output_tokens = model.maxTokens;
      body.store = false;
      if (isReasoningModel(model)) body.include = ["reasoning.encrypted_content"];
      return {
        url: `${model.baseUrl}/responses`,
        headers: { "content-type": "application/json", ...(model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {}) },
        secretHeaders: ["authorization"],
        body,
      };
    },

    parseResponse(body: unknown): TurnResult {
      const b = body as Obj;
      if (!Array.isArray(b?.output)) throw new Error("no output list in the response");
      const output = b.output as Obj[];
      let text = "";
      let refusal: string | undefined;
      const toolCalls: ToolCall[] = [];
      for (const item of output) {
        if (item?.type === "function_call" && typeof item.name === "string") toolCalls.push(readCall(item));
        else if (item?.type === "message" && Array.isArray(item.content)) {
          for (const part of item.content as Obj[]) {
            if (part?.type === "output_text" && typeof part.text === "string") text += part.text;
            else if (part?.type === "refusal" && typeof part.refusal === "string") refusal = (refusal ?? "") + part.refusal;
          }
        }
      }
      const incomplete = b.status === "incomplete" ? INCOMPLETE[b.incomplete_details?.reason] ?? "other" : undefined;
      return {
        // The output items go back as input next turn, reasoning items included; none = nothing to replay.
        assistant: output.length > 0 ? output : undefined,
        text,
        toolCalls,
        finish: toolCalls.length > 0 ? "tool_calls" : (incomplete ?? (b.status === "completed" || b.status === undefined ? "stop" : "other")),
        refusal: refusal !== undefined && refusal !== "" ? refusal : undefined,
        usage: responsesUsage(b.usage),
        response: responseMeta(b.id, b.model, b.status === "incomplete" ? b.incomplete_details?.reason : b.status),
      };
    },

    errorMessage(body: unknown): string | undefined {
      const m = (body as Obj)?.error?.message;
      return typeof m === "string" ? m : undefined;
    },

    normaliseArgs(tool, args) {
      dropOptionalNulls(tool.parameters, args);
      return args;
    },

    normaliseFinal(format, value) {
      dropOptionalNulls(format.schema, value);
      return value;
    },
  };
}

/** A thread's stored assistant turn as Responses input items: its text as an assistant message, then its function calls. */
function neutralOutput(text: string | undefined, calls: readonly ToolCall[] | undefined): Obj[] {
  const items: Obj[] = [];
  if (text) items.push({ role: "assistant", content: text });
  for (const c of calls ?? []) items.push({ type: "function_call", call_id: c.id, name: c.name, arguments: JSON.stringify(c.args ?? {}) });
  return items;
}
