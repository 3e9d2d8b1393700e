/**
 * A thread's stored messages and an ask's transcript, each way (issue #26 §1).
 *
 * To the provider: user messages become user items, assistant messages neutral assistant
 * items (no `native`: each adapter writes them in its own shape, so a thread started on one
 * family continues on another; thinking blocks and thought signatures are never stored), and
 * each run of tool messages one tool-results item. `history_limit: N` keeps at most the last
 * N messages, then drops from the front until the first is a user message — so a tool result
 * is never sent without the call it answers, and every family sees a conversation that
 * starts with the user.
 *
 * From an ask: its exchange (ask-flow.ts) becomes the user message, each tool-calling
 * assistant turn and one message per tool result, then the answer — each assistant and
 * tool message naming the agent that produced it (after a handoff, issue #27 §2, the agent
 * handed to; `agent` is the ask's own, for an exchange that names none).
 */
import type { ThreadMessage } from "../stores/threads/thread-message";
import type { ToolCall, ToolResult, TranscriptItem } from "../providers/provider-types";
import type { AskExchange } from "./ask-types";

export function historyOf(messages: readonly ThreadMessage[], limit: number | undefined): TranscriptItem[] {
  let start = limit === undefined ? 0 : Math.max(0, messages.length - limit);
  while (start < messages.length && messages[start].role !== "user") start++;
  const items: TranscriptItem[] = [];
  const callsById = new Map<string, ToolCall>();
  for (let i = start; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "user") items.push({ kind: "user", text: m.text });
    else if (m.role === "assistant") {
      const toolCalls = (m.tool_calls ?? []).map((c): ToolCall => ({ id: c.id, nativeId: true, name: c.name, args: c.args }));
      for (const c of toolCalls) callsById.set(c.id, c);
      items.push({ kind: "assistant", native: undefined, text: m.text, toolCalls });
    } else {
      const id = m.tool_call_id ?? "";
      const call = callsById.get(id) ?? { id, nativeId: true, name: "unknown", args: {} };
      const content = parseContent(m.text);
      const result: ToolResult = { call, content, isError: isErrorContent(content) };
      const last = items[items.length - 1];
      if (last?.kind === "tool_results") last.results.push(result);
      else items.push({ kind: "tool_results", results: [result] });
    }
  }
  return items;
}

export function messagesOf(exchange: AskExchange, agent: string, time: string, id: string): ThreadMessage[] {
  const out: ThreadMessage[] = [];
  exchange.items.forEach((item, i) => {
    const by = exchange.agents[i] ?? agent;
    if (item.kind === "user") out.push({ role: "user", text: item.text, time, exchange: id });
    else if (item.kind === "assistant") {
      const tool_calls = (item.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args ?? {} }));
      out.push({ role: "assistant", text: item.text ?? "", tool_calls, agent: by, time, exchange: id });
    } else {
      for (const r of item.results) out.push({ role: "tool", text: JSON.stringify(r.content) ?? "null", tool_call_id: r.call.id, agent: by, time, exchange: id });
    }
  });
  out.push({ role: "assistant", text: exchange.answer, agent: exchange.answeredBy, time, exchange: id });
  return out;
}

/** A tool message's text is the result's JSON; text that is not JSON is kept as a string. */
function parseContent(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The pipeline's error results are `{ error: { code, message, retryable } }` and nothing else. */
const isErrorContent = (c: unknown): boolean =>
  typeof c === "object" && c !== null && !Array.isArray(c) && Object.keys(c).length === 1 && typeof (c as { error?: unknown }).error === "object";
