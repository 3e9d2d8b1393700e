/**
 * How the fake provider streams, per wire format: a rendered answer (wire-formats.ts) as the
 * server-sent events the provider sends for it — Chat Completions chunks (usage in the last
 * chunk, then `[DONE]`), Responses API typed events ending in `response.completed`, Anthropic's
 * message/content-block events, Gemini's `streamGenerateContent?alt=sse` chunks. Text is
 * split into pieces of a few characters, so a test sees several deltas; each event is its
 * own `data:` line, written as the provider writes it.
 */
import type { Rendered } from "./wire-formats";

type Obj = Record<string, any>;

/** Text in pieces of `size` characters (whole code points), as a model's tokens would come. */
export function pieces(text: string, size = 4): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

const sse = (events: { event?: string; data: unknown }[], r: Rendered): Rendered => ({
  status: 200,
  headers: { ...r.headers, "content-type": "text/event-stream" },
  body: events.map((e) => `${e.event ? `event: ${e.event}\n` : ""}data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`).join(""),
});

/** A rendered Chat Completion as `stream: true` chunks: the content in pieces, each tool call's name then its arguments in pieces. */
export function chatCompletionStream(r: Rendered): Rendered {
  if (r.status !== 200) return r;
  const c = JSON.parse(r.body);
  const m = c.choices[0].message;
  const chunk = (choices: Obj[], extra: Obj = {}) => ({ data: { id: c.id, object: "chat.completion.chunk", created: c.created, model: c.model, choices, ...extra } });
  const delta = (d: Obj) => chunk([{ index: 0, delta: d, finish_reason: null }]);
  const events = [delta({ role: "assistant", content: "" })];
  for (const p of pieces(m.content ?? "")) events.push(delta({ content: p }));
  if (m.refusal) events.push(delta({ refusal: m.refusal }));
  (m.tool_calls ?? []).forEach((t: Obj, index: number) => {
    events.push(delta({ tool_calls: [{ index, id: t.id, type: "function", function: { name: t.function.name, arguments: "" } }] }));
    for (const p of pieces(t.function.arguments, 8)) events.push(delta({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  events.push(chunk([{ index: 0, delta: {}, finish_reason: c.choices[0].finish_reason }]));
  events.push(chunk([], { usage: c.usage }));
  return sse([...events, { data: "[DONE]" }], r);
}

/** A rendered Responses API answer as typed events: text deltas per output_text part, then response.completed with the whole response. */
export function responsesStream(r: Rendered): Rendered {
  if (r.status !== 200) return r;
  const resp = JSON.parse(r.body);
  const events: { event: string; data: Obj }[] = [];
  let seq = 0;
  const push = (type: string, data: Obj) => events.push({ event: type, data: { type, sequence_number: seq++, ...data } });
  push("response.created", { response: { ...resp, status: "in_progress", output: [] } });
  resp.output.forEach((item: Obj, output_index: number) => {
    push("response.output_item.added", { output_index, item: { ...item, status: "in_progress" } });
    if (item.type === "message") {
      item.content.forEach((part: Obj, content_index: number) => {
        if (part.type !== "output_text") return;
        for (const p of pieces(part.text)) push("response.output_text.delta", { item_id: item.id, output_index, content_index, delta: p });
        push("response.output_text.done", { item_id: item.id, output_index, content_index, text: part.text });
      });
    }
    push("response.output_item.done", { output_index, item });
  });
  push(resp.status === "incomplete" ? "response.incomplete" : "response.completed", { response: resp });
  return sse(events, r);
}

/** A rendered Anthropic message as its events: message_start, each block's start/deltas/stop, message_delta, message_stop. */
export function anthropicStream(r: Rendered): Rendered {
  if (r.status !== 200) return r;
  const msg = JSON.parse(r.body);
  const events: { event: string; data: Obj }[] = [];
  const push = (type: string, data: Obj = {}) => events.push({ event: type, data: { type, ...data } });
  push("message_start", { message: { ...msg, content: [], stop_reason: null, usage: { input_tokens: msg.usage.input_tokens, output_tokens: 1 } } });
  push("ping");
  msg.content.forEach((block: Obj, index: number) => {
    if (block.type === "text") {
      push("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const p of pieces(block.text)) push("content_block_delta", { index, delta: { type: "text_delta", text: p } });
    } else if (block.type === "tool_use") {
      push("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      for (const p of pieces(JSON.stringify(block.input), 8)) push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: p } });
    } else if (block.type === "thinking") {
      push("content_block_start", { index, content_block: { type: "thinking", thinking: "" } });
      for (const p of pieces(block.thinking)) push("content_block_delta", { index, delta: { type: "thinking_delta", thinking: p } });
      push("content_block_delta", { index, delta: { type: "signature_delta", signature: block.signature } });
    }
    push("content_block_stop", { index });
  });
  push("message_delta", { delta: { stop_reason: msg.stop_reason, stop_sequence: msg.stop_sequence }, usage: { output_tokens: msg.usage.output_tokens } });
  push("message_stop");
  return sse(events, r);
}

/** A rendered Gemini answer as `streamGenerateContent?alt=sse` chunks: text parts in pieces, calls whole; the last chunk has the finish reason and usage. */
export function geminiStream(r: Rendered): Rendered {
  if (r.status !== 200) return r;
  const g = JSON.parse(r.body);
  const cand = g.candidates[0];
  const chunks: Obj[] = [];
  const base = { modelVersion: g.modelVersion, responseId: g.responseId };
  const part = (p: Obj) => chunks.push({ candidates: [{ index: 0, content: { role: "model", parts: [p] } }], ...base });
  for (const p of cand.content.parts) {
    if (typeof p.text === "string") for (const t of pieces(p.text)) part({ text: t });
    else part(p);
  }
  const last = chunks.at(-1) ?? { candidates: [{ index: 0, content: { role: "model", parts: [] } }], ...base };
  if (chunks.length === 0) chunks.push(last);
  last.candidates[0].finishReason = cand.finishReason;
  last.usageMetadata = g.usageMetadata;
  return sse(chunks.map((data) => ({ data })), r);
}
