/**
 * Reads one streamed answer (issue #26 §2): the body's text as the transport hands it over,
 * split into server-sent events by `eventsource-parser` (the parser the AI SDK and the MCP
 * SDK use: comments, `retry:`, multi-line `data:` and CRLF handled to the spec), each event
 * given to the wire format's decoder, which hands the answer's text on as it comes.
 *
 * `emitted` tells the client whether any text has gone out: a try that fails after that is
 * not retried, since the text it streamed cannot be taken back.
 *
 * After the first text (handed on at once), the deltas of one piece of the body are handed
 * on together, once the piece is read: a piece holds what the network delivered at once, so
 * nothing waits, and a fast stream costs one write per piece rather than one per token
 * (`bun run bench`, streaming).
 */
import { createParser } from "eventsource-parser";
import type { StreamDecoder } from "./provider-types";

export interface StreamReader {
  /** The next piece of the body. */
  push(text: string): void;
  /** Whether any piece came (a transport that cannot stream hands over none). */
  readonly fed: boolean;
  /** Whether any of the answer's text was handed on. */
  readonly emitted: boolean;
  /** The unstreamed body of the same answer; throws what the stream reported. */
  finish(): unknown;
}

export function openStreamReader(decoder: StreamDecoder, onText: (delta: string) => void): StreamReader {
  let fed = false;
  let emitted = false;
  let failure: Error | undefined;
  let pending = "";
  const hand = (delta: string) => {
    pending += delta;
  };
  const flush = () => {
    if (pending === "") return;
    const text = pending;
    pending = "";
    emitted = true;
    onText(text);
  };
  const parser = createParser({
    onEvent(e) {
      if (failure) return;
      try {
        decoder.event(e.event, e.data, hand);
      } catch (err) {
        failure = err instanceof Error ? err : new Error(String(err));
        return;
      }
      // The answer's first text goes out as soon as it is decoded, not after the rest of its
      // piece: time to first byte is one event's work, whatever else arrived with it.
      if (!emitted) flush();
    },
  });
  return {
    push(text) {
      fed = true;
      parser.feed(text);
      flush();
    },
    get fed() {
      return fed;
    },
    get emitted() {
      return emitted;
    },
    finish() {
      // A last event without its blank line is still an event (the stream's end closes it).
      parser.feed("\n\n");
      flush();
      if (failure) throw failure;
      return decoder.finish();
    },
  };
}
