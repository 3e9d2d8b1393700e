/**
 * Content of a `chat` span (opt-in, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)
 * in the JSON shape the OpenTelemetry GenAI conventions define for `gen_ai.input.messages`,
 * `gen_ai.output.messages` and `gen_ai.system_instructions` — the same for every provider,
 * not each provider's request body:
 *
 *   input   [{ role: "user" | "assistant" | "tool", parts: [...] }]
 *   output  [{ role: "assistant", parts: [...], finish_reason }]
 *   system  [{ type: "text", content }]
 *   parts   { type: "text", content } · { type: "tool_call", id, name, arguments }
 *           · { type: "tool_call_response", id, response }
 *
 * It is read from the ask's neutral transcript (providers/provider-types.ts `TranscriptItem`:
 * user text, assistant turns with their text and tool calls, tool results) handed over in the
 * `provider.request` event's content thunk; telemetry imports no provider code, so the shapes
 * it reads are spelled out here.
 */
type Obj = Record<string, any>;

interface Call {
  id?: string;
  name: string;
  args?: unknown;
}

type Part = Obj;

const textPart = (content: string): Part => ({ type: "text", content });
const callPart = (c: Call): Part => ({ type: "tool_call", id: c.id, name: c.name, arguments: c.args ?? null });

function assistantParts(text: unknown, calls: unknown): Part[] {
  const parts: Part[] = [];
  if (typeof text === "string" && text !== "") parts.push(textPart(text));
  if (Array.isArray(calls)) for (const c of calls as Call[]) parts.push(callPart(c));
  return parts;
}

/** The transcript sent in one request → `gen_ai.input.messages`. */
export function inputMessages(transcript: unknown): Obj[] {
  const out: Obj[] = [];
  for (const item of Array.isArray(transcript) ? (transcript as Obj[]) : []) {
    if (item.kind === "user") out.push({ role: "user", parts: [textPart(String(item.text))] });
    else if (item.kind === "assistant") out.push({ role: "assistant", parts: assistantParts(item.text, item.toolCalls) });
    else if (item.kind === "tool_results") {
      for (const r of (item.results ?? []) as Obj[]) out.push({ role: "tool", parts: [{ type: "tool_call_response", id: r.call?.id, response: r.content ?? null }] });
    }
  }
  return out;
}

/** The answer → `gen_ai.output.messages` (one message: Luma reads one choice). */
export function outputMessages(output: unknown): Obj[] {
  const o = (output ?? {}) as Obj;
  return [{ role: "assistant", parts: assistantParts(o.text, o.toolCalls), finish_reason: String(o.finish ?? "stop") }];
}

/** The ask's system prompt → `gen_ai.system_instructions`. */
export const systemInstructions = (system: unknown): Obj[] | undefined => (typeof system === "string" ? [textPart(system)] : undefined);
