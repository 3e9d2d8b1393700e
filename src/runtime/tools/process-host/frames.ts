/**
 * The private channel between `luma` and a tool module's child under `sandbox: "process"`:
 * framed JSON messages on the child's stdin (requests) and stdout (replies), no socket.
 *
 * A frame is the 4 bytes `LMF1`, a 4-byte big-endian length, then that many bytes of UTF-8
 * JSON. The magic makes a child that writes anything else on its stdout (a module printing
 * to fd 1, garbage) detectable at its first byte: the reader reports it instead of waiting
 * for a length that will never come. Frames are capped (MAX_FRAME_BYTES) for the same reason.
 */

const MAGIC = [0x4c, 0x4d, 0x46, 0x31]; // "LMF1"
const HEADER = 8;
/** A reply larger than this is refused as garbage: 64 MiB of JSON is no tool result. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

export function encodeFrame(message: unknown): Uint8Array {
  const body = encoder.encode(JSON.stringify(message));
  const frame = new Uint8Array(HEADER + body.length);
  frame.set(MAGIC, 0);
  new DataView(frame.buffer).setUint32(4, body.length);
  frame.set(body, HEADER);
  return frame;
}

/** Thrown by the reader on bytes that are not a frame: the stream cannot be trusted after. */
export class BadFrame extends Error {
  constructor(why: string) {
    super(why);
    this.name = "BadFrame";
  }
}

/**
 * Accumulates chunks and hands out whole messages. `push` returns the messages complete so
 * far; it throws BadFrame on a wrong magic, an oversize length or a body that is not JSON.
 */
export class FrameReader {
  private buffer = new Uint8Array(0);

  push(chunk: Uint8Array): unknown[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer, 0);
    joined.set(chunk, this.buffer.length);
    this.buffer = joined;
    const out: unknown[] = [];
    for (;;) {
      const have = this.buffer.length;
      for (let i = 0; i < Math.min(have, MAGIC.length); i++) {
        if (this.buffer[i] !== MAGIC[i]) throw new BadFrame(`bytes outside the protocol on the channel (${preview(this.buffer)})`);
      }
      if (have < HEADER) return out;
      const length = new DataView(this.buffer.buffer, this.buffer.byteOffset).getUint32(4);
      if (length > MAX_FRAME_BYTES) throw new BadFrame(`a frame of ${length} bytes (the limit is ${MAX_FRAME_BYTES})`);
      if (have < HEADER + length) return out;
      const body = this.buffer.subarray(HEADER, HEADER + length);
      try {
        out.push(JSON.parse(decoder.decode(body)));
      } catch {
        throw new BadFrame("a frame whose body is not JSON");
      }
      this.buffer = this.buffer.slice(HEADER + length);
    }
  }
}

/** The first bytes of a bad stream, printable, for the error message. */
const preview = (bytes: Uint8Array): string =>
  JSON.stringify(new TextDecoder().decode(bytes.subarray(0, 24)).replace(/[^\x20-\x7e]/g, "?"));
