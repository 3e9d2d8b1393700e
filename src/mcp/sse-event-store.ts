/**
 * The events of one Streamable HTTP session's SSE streams, kept so a client whose stream
 * broke can resume it: each event gets an id (`<stream>.<n>`), a stream opens with a
 * priming event (an id and empty data, with `retry:`, for a client of 2025-11-25 on), and a
 * `GET` carrying `Last-Event-ID` is sent what followed that id on its stream — the answer of
 * a call that finished while the client was away included.
 *
 * Bounded, since a session may live long: at most `limit` events are kept (the oldest go
 * first; a resume from an id that went is refused by the SDK with the stream's end), and the
 * whole store goes with its session.
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Events kept per session: far more than a call's notices and answer, small beside its memory. */
export const EVENTS_KEPT = 1_000;

/** How long a client waits before it reconnects a stream the server closed (the SSE `retry` field), ms. */
export const RETRY_MS = 1_000;

interface Kept {
  stream: string;
  message: JSONRPCMessage;
}

export class SessionEventStore implements EventStore {
  private readonly events = new Map<string, Kept>();
  private next = 0;
  constructor(private readonly limit = EVENTS_KEPT) {}

  async storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}.${++this.next}`;
    this.events.set(id, { stream, message });
    // A Map iterates in insertion order: the first key is the oldest event.
    if (this.events.size > this.limit) this.events.delete(this.events.keys().next().value!);
    return id;
  }

  async getStreamIdForEventId(id: string): Promise<string | undefined> {
    return this.events.get(id)?.stream;
  }

  async replayEventsAfter(lastId: string, { send }: { send: (id: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const last = this.events.get(lastId);
    if (last === undefined) return "";
    let after = false;
    for (const [id, kept] of [...this.events]) {
      if (id === lastId) after = true;
      // The priming event (empty data) is not a message to send again.
      else if (after && kept.stream === last.stream && Object.keys(kept.message).length > 0) await send(id, kept.message);
    }
    return last.stream;
  }
}
