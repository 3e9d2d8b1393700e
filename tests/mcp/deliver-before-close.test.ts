/**
 * Closing an MCP connection delivers its last cancellation (docs/mcp.md, "Timeouts and
 * cancellation"): the SDK client's `notifications/cancelled` is sent without being awaited,
 * and closing a Streamable HTTP transport aborts every request still in flight. When a call
 * timed out as the program ended, the cancellation was lost whenever its POST had not left
 * yet (a loaded machine: about one run in three) and the server ran on.
 *
 * The real SDK client and transport against the SDK server of fixtures/http-server.ts; the
 * transport's `fetch` holds the cancellation back for a moment, as a busy machine does, so
 * the race is lost every time without `deliverBeforeClose`.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { deliverBeforeClose } from "../../src/mcp/deliver-before-close";
import { startTestHttpServer, type TestHttpServer } from "./fixtures/http-server";

setDefaultTimeout(30_000);

let server: TestHttpServer;
beforeAll(() => void (server = startTestHttpServer()));
afterAll(() => server.stop());

const isCancellation = (init?: RequestInit) => typeof init?.body === "string" && init.body.includes('"notifications/cancelled"');

/** A transport whose cancellation POSTs wait `holdMs` before leaving (or never leave). */
function transport(holdMs: number | "never"): StreamableHTTPClientTransport {
  const held: typeof fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    if (isCancellation(init)) {
      if (holdMs === "never") return new Promise<Response>(() => {});
      await Bun.sleep(holdMs);
    }
    return fetch(url, init);
  }) as typeof fetch;
  return new StreamableHTTPClientTransport(new URL(server.url), { fetch: held });
}

/** Starts `slow` with a given wait, aborts it after 100 ms, closes at once; returns when close returned. */
async function abortThenClose(t: Transport, ms: number): Promise<void> {
  const client = new Client({ name: "test", version: "1" }, { capabilities: {} });
  await client.connect(t);
  const abort = new AbortController();
  const call = client.callTool({ name: "slow", arguments: { ms } }, undefined, { signal: abort.signal, timeout: 600_000 });
  await Bun.sleep(100);
  abort.abort(new Error("timed out"));
  await call.catch(() => {});
  await client.close();
}

/** Waits up to `ms` for the server to have seen `entry` cancelled. */
async function cancelledWithin(entry: string, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (server.cancelled.includes(entry)) return true;
    await Bun.sleep(10);
  }
  return server.cancelled.includes(entry);
}

describe("MCP client: closing delivers the cancellation", () => {
  test("without it, closing right after a cancellation loses it: the server's call runs on", async () => {
    await abortThenClose(transport(300), 41_001);
    expect(await cancelledWithin("slow 41001", 1_000)).toBe(false);
  });

  test("closing waits for a cancellation still being sent, and the server's call is cancelled", async () => {
    await abortThenClose(deliverBeforeClose(transport(300)), 41_002);
    expect(server.cancelled).toContain("slow 41002");
  });

  test("a cancellation that never leaves holds the close for the grace only", async () => {
    const closed = abortThenClose(deliverBeforeClose(transport("never"), 200), 41_003).then(() => "closed");
    expect(await Promise.race([closed, Bun.sleep(10_000).then(() => "still open")])).toBe("closed");
  });

  test("a request still running is not waited for: closing does not sit out a 60 s call", async () => {
    const client = new Client({ name: "test", version: "1" }, { capabilities: {} });
    await client.connect(deliverBeforeClose(transport(0), 20_000));
    const call = client.callTool({ name: "slow", arguments: { ms: 60_000 } }, undefined, { timeout: 600_000 }).catch(() => "ended");
    await Bun.sleep(100);
    const closed = client.close().then(() => "closed");
    expect(await Promise.race([closed, Bun.sleep(10_000).then(() => "still open")])).toBe("closed");
    expect(await call).toBe("ended");
  });
});
