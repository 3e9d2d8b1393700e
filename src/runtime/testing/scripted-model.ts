/**
 * The transport behind a test's `mock Model [turns]` (luma test): each request the model's
 * ask sends is answered with the next scripted turn, rendered in the model's own wire format
 * (wire notes: OpenAI chat completions — also Azure and compatible servers —, OpenAI
 * Responses, Anthropic messages, Gemini generateContent). Everything above the transport —
 * the adapter's parsing, tool rounds through the real pipeline, validation, retries — runs
 * unchanged, so a test exercises the same flow as a run against the provider.
 *
 * A turn is `{ calls: [{ tool, input }], text? }` (the model calls tools) or `{ answer: v }`
 * (its final value: the JSON text of v; wrapped as `{ "value": v }` when the request's
 * answer format is the wrapper of a non-object target, ask-target.ts) or `{ text: "…" }`
 * (a raw answer text, e.g. one that is not JSON, to test the retry). Requests past the last
 * turn fail the test clearly; models without a mock fall through to `fallback`.
 */
import { runtimeError } from "../../diagnostics/luma-error";
import type { ExchangeInfo, Transport, WireRequest, WireResponse } from "../providers/transport";

export interface ScriptedCall {
  tool: string;
  input: unknown;
}

export type ScriptedTurn = { calls: ScriptedCall[]; text?: string } | { answer: unknown } | { text: string };

export interface ScriptedModel {
  /** The model declaration's name. */
  model: string;
  turns: ScriptedTurn[];
  /** `file:line:col` of the `mock`, for messages. */
  where: string;
}

type Obj = Record<string, unknown>;
type Family = "chat" | "responses" | "anthropic" | "gemini";

const familyOf = (req: WireRequest, info: ExchangeInfo): Family =>
  info.provider === "anthropic" ? "anthropic" : info.provider === "gemini" ? "gemini" : /\/responses(\?|$)/.test(req.url) ? "responses" : "chat";

export function scriptedTransport(models: readonly ScriptedModel[], fallback: Transport): Transport {
  const queues = new Map(models.map((m) => [m.model, { model: m, next: 0 }]));
  return async (req, info) => {
    const q = queues.get(info.decl);
    if (!q) return fallback(req, info);
    const turn = q.model.turns[q.next];
    if (turn === undefined) {
      throw runtimeError(
        "PROVIDER_ERROR",
        `mock ${q.model.model} (${q.model.where}) scripts ${q.model.turns.length} turn(s); the ask sent request ${q.next + 1}`,
      );
    }
    const n = q.next++;
    const body = RENDER[familyOf(req, info)](turn, n, info.model, answerText(turn, info.body));
    return { status: 200, headers: { "content-type": "application/json" }, text: JSON.stringify(body) } satisfies WireResponse;
  };
}

/** The final answer's text; undefined for a tool-calling turn. */
function answerText(turn: ScriptedTurn, body: Obj): string | undefined {
  if ("calls" in turn) return undefined;
  if (!("answer" in turn)) return turn.text;
  const v = turn.answer;
  const alreadyWrapped = isObj(v) && Object.keys(v).length === 1 && "value" in v;
  return JSON.stringify(hasWrappedFormat(body) && !alreadyWrapped ? { value: v } : v);
}

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether the request's answer format (anywhere but its tool declarations) is `{ "value": T }`. */
function hasWrappedFormat(node: unknown, depth = 0): boolean {
  if (depth > 8 || typeof node !== "object" || node === null) return false;
  if (Array.isArray(node)) return node.some((n) => hasWrappedFormat(n, depth + 1));
  const o = node as Obj;
  const props = o.properties;
  if (isObj(props) && Object.keys(props).length === 1 && "value" in props && Array.isArray(o.required) && o.required[0] === "value") return true;
  return Object.entries(o).some(([k, v]) => k !== "tools" && k !== "messages" && k !== "contents" && k !== "input" && hasWrappedFormat(v, depth + 1));
}

const usage = { input: 10, output: 5 };
const args = (c: ScriptedCall) => JSON.stringify(c.input ?? {});

const RENDER: Record<Family, (turn: ScriptedTurn, n: number, model: string, answer: string | undefined) => Obj> = {
  chat(turn, n, model, answer) {
    const message: Obj = { role: "assistant", content: answer ?? null, refusal: null };
    if ("calls" in turn) {
      message.content = turn.text ?? null;
      message.tool_calls = turn.calls.map((c, i) => ({ id: `call_${n}_${i}`, type: "function", function: { name: c.tool, arguments: args(c) } }));
    }
    return {
      id: `chatcmpl-mock-${n}`,
      object: "chat.completion",
      model,
      choices: [{ index: 0, finish_reason: "calls" in turn ? "tool_calls" : "stop", message }],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    };
  },
  responses(turn, n, model, answer) {
    const message = (text: string) => ({ type: "message", id: `msg_${n}`, status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });
    const output: Obj[] = [];
    if ("calls" in turn) {
      if (turn.text) output.push(message(turn.text));
      turn.calls.forEach((c, i) => output.push({ type: "function_call", id: `fc_${n}_${i}`, call_id: `call_${n}_${i}`, name: c.tool, arguments: args(c), status: "completed" }));
    } else output.push(message(answer ?? ""));
    return { id: `resp_mock_${n}`, object: "response", status: "completed", model, output, usage: { input_tokens: usage.input, output_tokens: usage.output } };
  },
  anthropic(turn, n, model, answer) {
    const content: Obj[] = [];
    if ("calls" in turn) {
      if (turn.text) content.push({ type: "text", text: turn.text });
      turn.calls.forEach((c, i) => content.push({ type: "tool_use", id: `toolu_${n}_${i}`, name: c.tool, input: c.input ?? {} }));
    } else content.push({ type: "text", text: answer ?? "" });
    const stop = "calls" in turn ? "tool_use" : "end_turn";
    return { id: `msg_mock_${n}`, type: "message", role: "assistant", model, content, stop_reason: stop, usage: { input_tokens: usage.input, output_tokens: usage.output } };
  },
  gemini(turn, n, model, answer) {
    const parts: Obj[] = [];
    if ("calls" in turn) {
      if (turn.text) parts.push({ text: turn.text });
      for (const c of turn.calls) parts.push({ functionCall: { name: c.tool, args: c.input ?? {} } });
    } else parts.push({ text: answer ?? "" });
    return {
      candidates: [{ index: 0, finishReason: "STOP", content: { role: "model", parts } }],
      usageMetadata: { promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output },
      modelVersion: model,
    };
  },
};
