/**
 * The Vercel AI SDK's UI message stream protocol (v1), the server's side: what `useChat`
 * (`DefaultChatTransport`) reads. Server-sent events, one JSON part per `data:` line, ended
 * by `data: [DONE]`, under the header `x-vercel-ai-ui-message-stream: v1`. The part shapes
 * are the `ai` package's (`UIMessageChunk`, ui-message-chunks.ts in ai 7):
 *
 *   start { messageId } · start-step · text-start { id } · text-delta { id, delta } · text-end { id }
 *   tool-input-available { toolCallId, toolName, input } · tool-output-available { toolCallId, output }
 *   tool-output-error { toolCallId, errorText } · tool-output-denied { toolCallId }
 *   tool-approval-request { approvalId, toolCallId } · finish-step · finish { finishReason } · error { errorText }
 *
 * One writer per answer: it keeps the open text block and step, so a tool round closes the
 * text before its calls and opens a new step after their results, as the SDK's own server does.
 */
import type { ToolCall, ToolResult } from "../runtime/providers/provider-types";

export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
};

type Part = { type: string } & Record<string, unknown>;

/**
 * What the writers of one chat turn share when it spans several answers (a turn paused for an
 * approval or a client tool's output continues on the client's next request): the calls sent
 * as tool input and not answered yet, and those a person refused.
 */
export interface CallStates {
  pending: Set<string>;
  denied: Set<string>;
  /**
   * Calls the client's message holds already (a journaled turn continued on the client's
   * answers replays its earlier rounds, durable-chat-turns.ts): "open" — its tool input is not
   * sent again, its output is; "done" (an output, an error or a denial the client has) —
   * nothing of it is sent again.
   */
  held: ReadonlyMap<string, "open" | "done">;
}

export const newCallStates = (held: ReadonlyMap<string, "open" | "done"> = new Map()): CallStates => ({ pending: new Set(), denied: new Set(), held });

export interface UiMessageWriter {
  /** The SSE body to answer with. */
  readonly body: ReadableStream<Uint8Array>;
  /** The first reader is gone (its request aborted); idempotent, as the body's cancel. */
  release(): void;
  /**
   * Another reader of the same message (`useChat`'s resume after a dropped connection): every
   * part sent so far, then the rest as they come. Undefined once the message has ended.
   */
  follow(sent: () => void): ReadableStream<Uint8Array> | undefined;
  text(delta: string): void;
  toolCalls(calls: readonly ToolCall[]): void;
  toolResults(results: readonly ToolResult[]): void;
  /** Asks the client to approve call `toolCallId` (its answer comes with the next request). */
  approvalRequest(approvalId: string, toolCallId: string): void;
  /** Ends the message: the open text and step close, `finish`, `[DONE]`. */
  finish(): void;
  /** Ends the message with an `error` part (what useChat shows as its error), then `[DONE]`; a tool call still running gets the error as its output error first. */
  fail(errorText: string): void;
}

const encoder = new TextEncoder();

/**
 * `onCancel`: every reader went away (the first one's body was cancelled or its request
 * aborted, and no follower reads on). The parts sent are kept until the message ends, so a
 * follower can be given them from the start.
 */
export function uiMessageWriter(messageId: string, onCancel: () => void, calls: CallStates = newCallStates(), firstSent: () => void = () => {}): UiMessageWriter {
  let closed = false;
  const sent: Uint8Array[] = [];
  /** Each reader, with what to call as its last bytes go out (`sent`). */
  const readers = new Map<ReadableStreamDefaultController<Uint8Array>, () => void>();
  const reader = (replay: boolean, onSent: () => void) => {
    let mine!: ReadableStreamDefaultController<Uint8Array>;
    const gone = () => {
      if (readers.delete(mine) && readers.size === 0 && !closed) onCancel();
    };
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        mine = c;
        readers.set(c, onSent);
        if (replay) for (const chunk of sent) c.enqueue(chunk);
      },
      cancel: gone,
    });
    return { stream, gone };
  };
  const first = reader(false, firstSent);
  const body = first.stream;
  const send = (part: Part | "[DONE]") => {
    if (closed) return;
    const chunk = encoder.encode(`data: ${typeof part === "string" ? part : JSON.stringify(part)}\n\n`);
    sent.push(chunk);
    for (const c of readers.keys()) c.enqueue(chunk);
  };
  const end = () => {
    if (closed) return;
    send("[DONE]");
    closed = true;
    sent.length = 0;
    for (const [c, onSent] of readers) {
      onSent();
      c.close();
    }
    readers.clear();
  };
  let textId: string | undefined;
  let texts = 0;
  // Calls sent as tool input and not answered yet: a failure that ends the ask answers them.
  const { pending, denied, held } = calls;
  const unanswered = (id: string, errorText: string) => {
    pending.delete(id);
    send(denied.has(id) ? { type: "tool-output-denied", toolCallId: id } : { type: "tool-output-error", toolCallId: id, errorText });
  };
  let stepOpen = false;
  const openStep = () => {
    if (!stepOpen) send({ type: "start-step" });
    stepOpen = true;
  };
  const closeText = () => {
    if (textId !== undefined) send({ type: "text-end", id: textId });
    textId = undefined;
  };
  const closeStep = () => {
    closeText();
    if (stepOpen) send({ type: "finish-step" });
    stepOpen = false;
  };
  send({ type: "start", messageId });
  openStep();
  return {
    body,
    release: first.gone,
    follow: (onSent) => (closed ? undefined : reader(true, onSent).stream),
    text(delta) {
      if (delta === "") return;
      openStep();
      if (textId === undefined) send({ type: "text-start", id: (textId = `text-${++texts}`) });
      send({ type: "text-delta", id: textId, delta });
    },
    toolCalls(calls) {
      // A replayed round the client has whole: its step is not opened again.
      if (held.size > 0 && calls.every((c) => held.get(c.id) === "done")) return;
      openStep();
      closeText();
      for (const c of calls) {
        if (held.get(c.id) === "done") continue;
        pending.add(c.id);
        if (!held.has(c.id)) send({ type: "tool-input-available", toolCallId: c.id, toolName: c.name, input: c.args ?? {} });
      }
    },
    toolResults(results) {
      if (held.size > 0 && results.every((r) => held.get(r.call.id) === "done")) return;
      for (const r of results) {
        if (!pending.has(r.call.id)) continue; // answered already (a client tool's output came from the client)
        pending.delete(r.call.id);
        if (!r.isError) send({ type: "tool-output-available", toolCallId: r.call.id, output: r.content ?? null });
        else unanswered(r.call.id, errorTextOf(r.content));
      }
      closeStep();
    },
    approvalRequest(approvalId, toolCallId) {
      send({ type: "tool-approval-request", approvalId, toolCallId });
    },
    finish() {
      closeStep();
      send({ type: "finish", finishReason: "stop" });
      end();
    },
    fail(errorText) {
      closeText();
      for (const id of [...pending]) unanswered(id, errorText);
      send({ type: "error", errorText });
      end();
    },
  };
}

/** A tool's error result (`{ error: { code, message } }`, tool-round.ts) as one line. */
function errorTextOf(content: unknown): string {
  const e = (content as { error?: { code?: string; message?: string } } | undefined)?.error;
  return e ? `[${e.code ?? "TOOL_HANDLER_ERROR"}] ${e.message ?? ""}`.trim() : JSON.stringify(content);
}
