/**
 * A body read up to a bound, for every place that reads one it did not write: a provider's
 * response (providers/transport.ts), luma:std's HTTP response (tools/std/), `luma serve`'s
 * request. A body past the bound fails with `BodyTooLarge` as soon as that is known — from
 * `Content-Length` before reading, else while reading, the rest unread — so no peer can make
 * Luma hold an unbounded body.
 */

/** Thrown when the body passed the bound; `declared`: its `Content-Length`, when that said so before reading. */
export class BodyTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly declared?: number,
  ) {
    super(`body larger than ${limit} bytes`);
  }
}

/** What a body is read from: a fetch `Response`, or a server's `Request`. */
interface BodySource {
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
}

/** The body as text, at most `max` bytes; `onChunk` hears its text as it comes (a streamed answer). */
export async function readCappedBody(source: BodySource, max: number, onChunk?: (text: string) => void): Promise<string> {
  // A streamed body is counted as it comes: its headers are not read first — the first read of
  // a response's headers builds them (~0.1 ms), on a streamed answer's first text.
  const declared = onChunk ? null : source.headers.get("content-length");
  if (declared !== null && Number(declared) > max) {
    await source.body?.cancel();
    throw new BodyTooLarge(max, Number(declared));
  }
  // A declared length bounds the plain body; a compressed one may inflate, so count it.
  if (declared !== null && source.headers.get("content-encoding") === null && !onChunk) return source.text();
  if (!source.body) return "";
  const reader = source.body.getReader();
  const chunks: Uint8Array[] = [];
  // A streamed body is decoded as it comes (a character split across chunks waits for its rest).
  const decoder = onChunk ? new TextDecoder() : undefined;
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new BodyTooLarge(max);
    }
    chunks.push(value);
    if (decoder) {
      const text = decoder.decode(value, { stream: true });
      if (text !== "") onChunk!(text);
    }
  }
  if (decoder) {
    const rest = decoder.decode();
    if (rest !== "") onChunk!(rest);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
