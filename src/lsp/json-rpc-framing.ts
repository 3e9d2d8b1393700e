/**
 * JSON-RPC 2.0 over stdio with LSP's base protocol framing: every message is a header
 * block (`Content-Length: N`, optionally `Content-Type`) ending in a blank line, then N
 * bytes of UTF-8 JSON. Hand-written so the server needs no runtime dependency.
 *
 * The reader works on bytes, not strings: Content-Length counts bytes, and a chunk may
 * end in the middle of a header, of a body or of a multi-byte character. A malformed
 * frame (no length, a length past the cap, a body that is not JSON) is answered with a
 * JSON-RPC parse error where it can be and skipped; it never stops the server.
 *
 * A header block without Content-Length leaves the reader not knowing where its body ends:
 * reading the body as the next header block lost that frame and every one after it (each
 * next "header" began with the previous body, so it never matched), and the server answered
 * nothing again. The reader resynchronises instead: it skips to the next `Content-Length:`
 * and reads on from there.
 */

/** A body larger than this is refused: one request may not make the server buffer without end. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export type JsonRpcMessage = {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

const HEADER_END = new Uint8Array([13, 10, 13, 10]);
const LENGTH_FIELD = "content-length:";

/** Where the next `Content-Length:` (any case) starts in `bytes` at or after `from`; -1 when none. */
function indexOfLengthField(bytes: Uint8Array, from: number): number {
  // latin1 maps each byte to one character, so indices are byte offsets.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + from, bytes.length - from).toString("latin1").toLowerCase();
  const at = text.indexOf(LENGTH_FIELD);
  return at === -1 ? -1 : from + at;
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Splits a byte stream into messages; `onMessage` gets each parsed body, `onBadFrame` each unusable one. */
export class FrameReader {
  private buffer: Uint8Array = new Uint8Array(0);
  private decoder = new TextDecoder();
  /** After a header without Content-Length: the bytes up to the next one are skipped. */
  private resyncing = false;

  constructor(
    private onMessage: (message: JsonRpcMessage) => void,
    private onBadFrame: (reason: string) => void,
  ) {}

  push(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    this.buffer = joined;
    let start = 0;
    for (;;) {
      if (this.resyncing) {
        const next = indexOfLengthField(this.buffer, start);
        if (next === -1) {
          // Keep a tail that may be the start of the field cut across chunks.
          start = Math.max(start, this.buffer.length - LENGTH_FIELD.length);
          break;
        }
        start = next;
        this.resyncing = false;
      }
      const headerEnd = indexOfBytes(this.buffer, HEADER_END, start);
      if (headerEnd === -1) break;
      const header = this.decoder.decode(this.buffer.subarray(start, headerEnd));
      const match = /(?:^|\r\n)content-length:\s*(\d+)\s*(?:\r\n|$)/i.exec(header);
      const bodyStart = headerEnd + HEADER_END.length;
      if (!match) {
        this.onBadFrame("a message header without Content-Length (skipped to the next Content-Length)");
        this.resyncing = true;
        start = bodyStart;
        continue;
      }
      const length = Number(match[1]);
      if (length > MAX_MESSAGE_BYTES) {
        // Nothing sane can follow an oversized frame on the same stream: drop what is buffered.
        this.onBadFrame(`a message of ${length} bytes (the limit is ${MAX_MESSAGE_BYTES})`);
        this.buffer = new Uint8Array(0);
        return;
      }
      if (this.buffer.length - bodyStart < length) break;
      const body = this.decoder.decode(this.buffer.subarray(bodyStart, bodyStart + length));
      start = bodyStart + length;
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        this.onBadFrame("a message body that is not JSON");
        continue;
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) this.onBadFrame("a message that is not a JSON object");
      else this.onMessage(parsed as JsonRpcMessage);
    }
    this.buffer = this.buffer.slice(start);
  }
}

/** One framed message, ready to write (the length counts the body's UTF-8 bytes). */
export function frame(message: JsonRpcMessage): string {
  const body = JSON.stringify({ jsonrpc: "2.0", ...message });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** JSON-RPC and LSP error codes the server answers with. */
export const RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  serverNotInitialized: -32002,
  requestFailed: -32803,
} as const;
