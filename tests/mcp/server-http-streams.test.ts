/**
 * `luma mcp --http` at the wire: resumable SSE streams (event ids, the priming event with
 * `retry`, a stream resumed with Last-Event-ID) and the shape of answers for an older
 * protocol version. Plain `fetch`, so the test sees exactly what a client gets.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { FIXTURES, startLumaHttp, type HttpServer } from "./mcp-harness";

setDefaultTimeout(60_000);

const CONFORMANCE = join(FIXTURES, "conformance");
const FIXTURE = [join(CONFORMANCE, "server.luma"), "--tool-module", join(CONFORMANCE, "tools.ts")];

interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}

/** Reads SSE events from a response body until `enough` says so (or the stream ends). */
async function readEvents(body: ReadableStream<Uint8Array>, enough: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const reader = body.pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  while (!enough(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = { data: "" };
      for (const line of block.split("\n")) {
        const [field, ...rest] = line.split(":");
        const text = rest.join(":").replace(/^ /, "");
        if (field === "id") event.id = text;
        else if (field === "retry") event.retry = Number(text);
        else if (field === "data") event.data += text;
      }
      events.push(event);
    }
  }
  await reader.cancel();
  return events;
}

const post = (url: string, body: object, version: string, session?: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": version, ...(session ? { "mcp-session-id": session } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", ...body }),
  });

/** A session of `version`: initialize, then initialized; its id. */
async function open(url: string, version: string): Promise<string> {
  const init = await post(url, { id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "wire", version: "1" } } }, version);
  const session = init.headers.get("mcp-session-id")!;
  await readEvents(init.body!, (e) => e.some((x) => x.data.includes('"id":0')));
  await post(url, { method: "notifications/initialized" }, version, session);
  return session;
}

const answerOf = (events: SseEvent[], id: number) => events.map((e) => (e.data ? JSON.parse(e.data) : undefined)).find((m) => m?.id === id);

describe("luma mcp --http: resumable streams and older protocol versions", () => {
  let server: HttpServer;
  beforeAll(async () => void (server = await startLumaHttp(FIXTURE)));
  afterAll(() => server.stop());

  test("2025-11-25: a call's stream opens with a priming event (id, empty data, retry 1000); every event has an id", async () => {
    const session = await open(server.url, "2025-11-25");
    const r = await post(server.url, { id: 1, method: "tools/call", params: { name: "test_simple_text", arguments: {} } }, "2025-11-25", session);
    const events = await readEvents(r.body!, (e) => answerOf(e, 1) !== undefined);
    expect(events[0]).toEqual({ id: events[0].id, retry: 1000, data: "" });
    expect(events.every((e) => typeof e.id === "string" && e.id.length > 0)).toBe(true);
    expect(answerOf(events, 1).result.structuredContent).toEqual({ text: "This is a simple text response for testing." });
  });

  test("a client whose stream broke resumes it with Last-Event-ID and gets the answer it missed", async () => {
    const session = await open(server.url, "2025-11-25");
    // test_reconnection runs ~300 ms: the client drops its stream right after the priming event.
    const r = await post(server.url, { id: 7, method: "tools/call", params: { name: "test_reconnection", arguments: {} } }, "2025-11-25", session);
    const [priming] = await readEvents(r.body!, (e) => e.length >= 1);
    const resumed = await fetch(server.url, {
      headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", "last-event-id": priming.id! },
    });
    expect(resumed.status).toBe(200);
    const events = await readEvents(resumed.body!, (e) => answerOf(e, 7) !== undefined);
    expect(answerOf(events, 7).result.structuredContent).toEqual({ text: "Reconnected." });
  });

  test("2025-03-26: tools without title, outputSchema or _meta (the title among the annotations); results without structuredContent", async () => {
    const session = await open(server.url, "2025-03-26");
    const list = await post(server.url, { id: 2, method: "tools/list" }, "2025-03-26", session);
    const tools = answerOf(await readEvents(list.body!, (e) => answerOf(e, 2) !== undefined), 2).result.tools as Record<string, unknown>[];
    const simple = tools.find((t) => t.name === "test_simple_text")!;
    expect(Object.keys(simple).sort()).toEqual(["annotations", "description", "inputSchema", "name"]);
    expect(simple.annotations).toEqual({ title: "Simple text", readOnlyHint: true, destructiveHint: false, openWorldHint: true });
    const call = await post(server.url, { id: 3, method: "tools/call", params: { name: "test_simple_text", arguments: {} } }, "2025-03-26", session);
    const result = answerOf(await readEvents(call.body!, (e) => answerOf(e, 3) !== undefined), 3).result;
    expect(result).toEqual({ content: [{ type: "text", text: JSON.stringify({ text: "This is a simple text response for testing." }) }] });
  });

  test("2024-11-05: tools without annotations either", async () => {
    const session = await open(server.url, "2024-11-05");
    const list = await post(server.url, { id: 2, method: "tools/list" }, "2024-11-05", session);
    const tools = answerOf(await readEvents(list.body!, (e) => answerOf(e, 2) !== undefined), 2).result.tools as Record<string, unknown>[];
    expect(Object.keys(tools.find((t) => t.name === "test_simple_text")!).sort()).toEqual(["description", "inputSchema", "name"]);
  });
});
