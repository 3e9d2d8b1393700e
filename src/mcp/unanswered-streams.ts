/**
 * A request over Streamable HTTP whose answer stream ends without its answer fails at once.
 *
 * The server answers a `tools/call` on an SSE stream. When that stream ends or breaks before
 * the answer (the server crashed, restarted, a proxy dropped it) and the server gave no
 * event id to resume from, the SDK neither resumes nor fails the request: it waited for the
 * tool's whole timeout (30 s by default, minutes for a long tool) and then was TOOL_TIMEOUT,
 * not the retryable TOOL_UNAVAILABLE a closed connection is. Here the transport's `fetch` is
 * watched: once such a stream is over and, after a short grace (the SDK may still be
 * reading its last event), the request has no answer, the transport hands the client a
 * "connection closed" error for that request — which remote-call.ts turns into
 * TOOL_UNAVAILABLE and a reconnect. A stream that carried event ids is left to the SDK's
 * resumption.
 */
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** How long after an unanswered stream's end its request is failed. */
const GRACE_MS = 500;

type Id = string | number;

const parseBody = (init?: RequestInit): Record<string, unknown> | undefined => {
  if (init?.method !== "POST" || typeof init.body !== "string") return undefined;
  try {
    const message = JSON.parse(init.body);
    return message !== null && typeof message === "object" && !Array.isArray(message) ? message : undefined;
  } catch {
    return undefined;
  }
};

const isSse = (res: Response) => res.ok && res.body !== null && (res.headers.get("content-type") ?? "").includes("text/event-stream");

/** The `fetch` to give the transport, and `attach`, called with that transport once created. */
export function failUnansweredStreams(base: FetchLike = fetch, graceMs = GRACE_MS): { fetch: FetchLike; attach(transport: Transport): void } {
  const pending = new Set<Id>();
  let deliver: ((message: JSONRPCMessage) => void) | undefined;

  const ended = (id: Id, resumable: boolean) => {
    if (resumable) return;
    const timer = setTimeout(() => {
      if (!pending.delete(id)) return;
      deliver?.({ jsonrpc: "2.0", id, error: { code: ErrorCode.ConnectionClosed, message: "The answer stream closed before the answer" } });
    }, graceMs);
    timer.unref?.();
  };

  const watched: FetchLike = async (url, init) => {
    const message = parseBody(init);
    const id = message && typeof message.method === "string" ? (message.id as Id | undefined) : undefined;
    if (message?.method === "notifications/cancelled") pending.delete((message.params as { requestId: Id }).requestId);
    if (id !== undefined) pending.add(id);
    const res = await base(url, init);
    if (id === undefined || !isSse(res)) return res;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let resumable = false;
    let tail = "";
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (e) {
          ended(id, resumable);
          throw e;
        }
        if (chunk.done) {
          ended(id, resumable);
          return controller.close();
        }
        // An `id:` field makes the stream resumable: the SDK reconnects with Last-Event-ID.
        const text = tail + decoder.decode(chunk.value, { stream: true });
        if (/(?:^|\n)id:/.test(text)) resumable = true;
        tail = text.slice(text.lastIndexOf("\n") + 1);
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };

  return {
    fetch: watched,
    attach(transport) {
      // The client sets `onmessage` when it connects: every answer passes here first. Before
      // that it reads the old value to chain it (none: the wrapper must not call itself).
      let inner: Transport["onmessage"];
      const onmessage: Transport["onmessage"] = (message, extra) => {
        if ("id" in message && !("method" in message)) pending.delete(message.id as Id);
        inner?.(message, extra);
      };
      deliver = (message) => onmessage(message);
      Object.defineProperty(transport, "onmessage", { get: () => (inner === undefined ? undefined : onmessage), set: (fn) => void (inner = fn), configurable: true });
    },
  };
}
