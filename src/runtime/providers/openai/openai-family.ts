/**
 * The `openai` family: Chat Completions by default, the Responses API with `api:
 * "responses"` (wire notes §1, §5), both with OpenAI's strict JSON Schema and its documented
 * size limits. Azure and the compatible servers reuse the chat wire (and its scripted
 * answers) from here with their own variants.
 */
import type { ProviderFamily, WireFormat } from "../provider-family";
import { SCRIPTED_USAGE, scriptedArguments, type ScriptedWire } from "../scripted-wire";
import { chatCompletionsUsage, createOpenAiAdapter, openAiVariant } from "./chat-completions";
import { openAiStrictProblem } from "./openai-schema-limits";
import { createOpenAiResponsesAdapter, responsesUsage } from "./responses-api";

/** A `luma test` turn as a `chat.completion` body. */
export const scriptedChatCompletion: ScriptedWire = (turn, n, model, answer) => {
  const message: Record<string, unknown> = { role: "assistant", content: answer ?? null, refusal: null };
  if ("calls" in turn) {
    message.content = turn.text ?? null;
    message.tool_calls = turn.calls.map((c, i) => ({ id: `call_${n}_${i}`, type: "function", function: { name: c.tool, arguments: scriptedArguments(c) } }));
  }
  return {
    id: `chatcmpl-mock-${n}`,
    object: "chat.completion",
    model,
    choices: [{ index: 0, finish_reason: "calls" in turn ? "tool_calls" : "stop", message }],
    usage: { prompt_tokens: SCRIPTED_USAGE.input, completion_tokens: SCRIPTED_USAGE.output, total_tokens: SCRIPTED_USAGE.input + SCRIPTED_USAGE.output },
  };
};

/** A `luma test` turn as a Responses API `response` body. */
const scriptedResponse: ScriptedWire = (turn, n, model, answer) => {
  const message = (text: string) => ({ type: "message", id: `msg_${n}`, status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });
  const output: Record<string, unknown>[] = [];
  if ("calls" in turn) {
    if (turn.text) output.push(message(turn.text));
    turn.calls.forEach((c, i) =>
      output.push({ type: "function_call", id: `fc_${n}_${i}`, call_id: `call_${n}_${i}`, name: c.tool, arguments: scriptedArguments(c), status: "completed" }),
    );
  } else output.push(message(answer ?? ""));
  return { id: `resp_mock_${n}`, object: "response", status: "completed", model, output, usage: { input_tokens: SCRIPTED_USAGE.input, output_tokens: SCRIPTED_USAGE.output } };
};

/** The OpenAI variant of Chat Completions. */
export const openAiChatWire: WireFormat = {
  createAdapter: () => createOpenAiAdapter(openAiVariant),
  readUsage: chatCompletionsUsage,
  scripted: scriptedChatCompletion,
};

export const openAiFamily: ProviderFamily = {
  name: "openai",
  defaults: { keyEnv: "OPENAI_API_KEY", baseUrl: "https://api.openai.com/v1" },
  wire: openAiChatWire,
  responsesWire: { createAdapter: createOpenAiResponsesAdapter, readUsage: responsesUsage, scripted: scriptedResponse },
  // Strict JSON Schema (openai-strict-schema.ts) takes $defs/$ref recursion; the documented
  // size limits are checked at start-up (openai-schema-limits.ts), on both APIs.
  strictSchema: { recursiveFormat: true, formatProblem: openAiStrictProblem, toolSchemaProblem: openAiStrictProblem },
  telemetryName: "openai",
};
