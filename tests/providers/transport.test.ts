import { describe, expect, test } from "bun:test";
import { BodyTooLarge } from "../../src/runtime/base/read-capped-body";
import { fetchTransport } from "../../src/runtime/providers/transport";

const info = { provider: "openai" as const, model: "m", decl: "M", body: {}, secretHeaders: [], secrets: [] };
const req = { url: "http://example.invalid/v1/chat/completions", headers: {}, body: "{}" };

/** A fetch that answers with a streamed body (no content-length), chunk by chunk. */
const streaming = (chunks: string[], pulled: { n: number }) =>
  (async () =>
    new Response(
      new ReadableStream({
        pull(c) {
          if (pulled.n >= chunks.length) return c.close();
          c.enqueue(new TextEncoder().encode(chunks[pulled.n++]));
        },
      }),
      { status: 200, headers: { "x-request-id": "r1", "set-cookie": "a=b" } },
    )) as unknown as typeof fetch;

describe("transport: the response size cap", () => {
  test("a chunked body is counted as it arrives and the read is cancelled past the cap", async () => {
    const pulled = { n: 0 };
    const chunks = Array.from({ length: 1000 }, () => "x".repeat(400));
    const t = fetchTransport({ fetch: streaming(chunks, pulled), maxResponseBytes: 1000 });
    const err = await t(req, info).catch((e) => e);
    expect(err).toBeInstanceOf(BodyTooLarge);
    // Stopped after the cap (a chunk or two of read-ahead), not after the 400 kB body.
    expect(pulled.n).toBeLessThan(10);
  });

  test("under the cap the body is read whole; only the headers Luma uses are kept", async () => {
    const t = fetchTransport({ fetch: streaming(['{"a":', "1}"], { n: 0 }), maxResponseBytes: 1000 });
    expect(await t(req, info)).toEqual({ status: 200, headers: { "x-request-id": "r1" }, text: '{"a":1}' });
  });
});
