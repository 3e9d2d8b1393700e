/**
 * Issue #26 §4, `luma serve` under attack, through `dist/luma`: what a hostile or broken
 * client can do to the server — bodies that trickle or never end, a thousand idle sockets, a
 * client that goes away mid-stream, malformed `useChat` bodies, chat ids that look like paths,
 * a header smuggled into the CORS origin, wrong tokens, two chats on one id at once, SIGTERM
 * during streams. Each time the server answers with a bounded refusal and keeps serving.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { readdirSync } from "node:fs";
import { KEYS, modelDecl } from "../ask/ask-harness";
import { startFakeProvider, type FakeTurn } from "../support/fake-provider/fake-provider";
import { chatClient } from "./chat-client";
import { post, project, serve, type Served } from "./serve-harness";

setDefaultTimeout(60_000);

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const program = `${modelDecl("openai")}
schema Order { id: int  status: string }
tool slow_lookup(id: int) -> Order {}
agent Support {
  model: M
  system: "You help with orders."
  tools: [slow_lookup]
  fn ping() -> string { return "pong" }
}
`;

const env = { ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai"), LUMA_SERVE_READ_MS: "1000", LUMA_SERVE_RESUME_MS: "200", SLOW_MS: "1500" };
let dir: string;
let s: Served;
beforeAll(async () => {
  dir = project(program, { threads: { backend: "file", path: "threads.json" } });
  s = await serve(dir, [], env);
});
afterAll(() => s.stop());

const hostPort = (url: string) => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
};

/** A raw TCP connection: what a hostile client sends, byte by byte. */
function rawSocket(url: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let data = "";
    let closedDone!: () => void;
    const closed = new Promise<void>((r) => (closedDone = r));
    const socket = connect(hostPort(url), () => resolve({ socket, received: () => data, closed }));
    socket.on("data", (d) => (data += d.toString()));
    socket.on("close", () => closedDone());
    socket.on("error", () => {});
    socket.once("error", reject);
  });
}

const chatBody = (id: string, text = "hello") => ({ id, messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }] });

/** The server still answers a plain request. */
async function stillServing(): Promise<void> {
  const res = await post(`${s.url}/agents/Support/ping`, {});
  expect(await res.json()).toBe("pong");
}

describe("issue #26 §4 attacks: bodies", () => {
  test("a body trickled a byte at a time (slowloris) is cut at LUMA_SERVE_READ_MS: 408, and the server keeps serving", async () => {
    const raw = await rawSocket(s.url);
    raw.socket.write("POST /agents/Support/ping HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n");
    const started = Date.now();
    const trickle = setInterval(() => raw.socket.writable && raw.socket.write(" "), 100);
    while (!raw.received().includes("\r\n\r\n") && Date.now() - started < 8_000) await Bun.sleep(50);
    clearInterval(trickle);
    raw.socket.destroy();
    expect(raw.received()).toStartWith("HTTP/1.1 408");
    expect(raw.received()).toContain('"code":"REQUEST_INVALID"');
    expect(Date.now() - started).toBeLessThan(5_000);
    await stillServing();
  });

  test("a chunked body that never ends is refused once past 1 MiB (413), without holding it whole", async () => {
    const raw = await rawSocket(s.url);
    raw.socket.write("POST /chat/Support HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    while (!raw.received().includes("\r\n\r\n") && sent < 16 << 20 && !raw.socket.destroyed) {
      raw.socket.write(`${chunk.length.toString(16)}\r\n`);
      raw.socket.write(chunk);
      raw.socket.write("\r\n");
      sent += chunk.length;
      await Bun.sleep(2);
    }
    raw.socket.destroy();
    expect(raw.received()).toStartWith("HTTP/1.1 413");
    expect(sent).toBeLessThan(8 << 20);
    await stillServing();
  });

  test("1,000 idle connections do not stop the server answering, and are closed after the read limit", async () => {
    const sockets = await Promise.all(Array.from({ length: 1000 }, () => rawSocket(s.url)));
    const t0 = performance.now();
    await stillServing();
    expect(performance.now() - t0).toBeLessThan(5_000);
    // Idle past LUMA_SERVE_READ_MS (1 s here): every one is closed by the server — within
    // seconds more, as Bun sweeps idle sockets every few seconds.
    await Promise.race([Promise.all(sockets.map((r) => r.closed)), Bun.sleep(25_000)]);
    expect(sockets.filter((r) => !r.socket.destroyed && !r.socket.readableEnded).length).toBe(0);
    await stillServing();
  });
  test("a kept-alive connection left idle after its answer — a JSON call's, a chat stream's — is closed after the read limit too", async () => {
    fake.script([{ text: "Hi." }]);
    const chat = JSON.stringify(chatBody("keep-alive"));
    const requests = [
      "POST /agents/Support/ping HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
      `POST /chat/Support HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${chat.length}\r\n\r\n${chat}`,
    ];
    const sockets = await Promise.all(requests.map(async (request) => {
      const raw = await rawSocket(s.url);
      raw.socket.write(request);
      return raw;
    }));
    await Promise.race([Promise.all(sockets.map((r) => r.closed)), Bun.sleep(25_000)]);
    expect(sockets.map((r) => [r.received().slice(0, 12), r.socket.destroyed || r.socket.readableEnded])).toEqual([["HTTP/1.1 200", true], ["HTTP/1.1 200", true]]);
    expect(sockets[1].received()).toContain("data: [DONE]");
  });
});

describe("issue #26 §4 attacks: cross-site pages", () => {
  test("a page of another site posting to the server (CSRF, text/plain: no preflight) is 403 REQUEST_FORBIDDEN and runs nothing", async () => {
    fake.script([{ text: "should not be asked" }]);
    const res = await fetch(`${s.url}/chat/Support`, { method: "POST", headers: { origin: "https://evil.example", "content-type": "text/plain" }, body: JSON.stringify(chatBody("csrf")) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe("REQUEST_FORBIDDEN");
    expect(fake.requests.length).toBe(0);
  });
});

describe("issue #26 §4 attacks: chat clients", () => {
  test("a client that goes away mid-stream, not resumed within LUMA_SERVE_RESUME_MS, aborts the ask: the model is not asked again, the thread gets nothing", async () => {
    fake.script([{ toolCalls: [{ name: "slow_lookup", args: { id: 1 }, id: "call_slow" }] }, { text: "never sent" }]);
    const abort = new AbortController();
    const res = await fetch(`${s.url}/chat/Support`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(chatBody("gone", "Where is order 1?")), signal: abort.signal });
    const reader = res.body!.getReader();
    let seen = "";
    while (!seen.includes("tool-input-available")) seen += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    await Bun.sleep(2_500); // past the tool's 1.5 s
    expect(fake.requests.length).toBe(1);
    fake.script([{ text: "Fresh start." }]);
    const chat = chatClient(s.url);
    const turn = await chat.send("Support", "gone", [chat.user("Hello again")]);
    expect(turn.errors).toEqual([]);
    expect(fake.requests[0].body.messages.map((m: any) => m.role)).toEqual(["system", "user"]);
    expect(s.stderr()).not.toMatch(/unhandled|Unhandled|    at /);
  });

  test("two messages on one chat at once: the second is THREAD_CONFLICT (409) before anything runs, and the thread holds the first exchange once", async () => {
    fake.script([{ toolCalls: [{ name: "slow_lookup", args: { id: 2 }, id: "call_a" }] }, { text: "Order 2 is late." }]);
    const chat = chatClient(s.url);
    const first = chat.send("Support", "busy", [chat.user("Where is order 2?")]);
    await Bun.sleep(500);
    const second = await post(`${s.url}/chat/Support`, chatBody("busy", "and order 3?"));
    expect(second.status).toBe(409);
    expect(((await second.json()) as any).error).toMatchObject({ code: "THREAD_CONFLICT", retryable: true });
    const firstTurn = await first;
    expect(firstTurn.errors).toEqual([]);
    fake.script([{ text: "Anything else?" }]);
    await chat.send("Support", "busy", [chat.user("thanks")]);
    const contents = fake.requests[0].body.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
    expect(contents).toEqual(["Where is order 2?", "thanks"]);
  });

  const malformed: [string, unknown][] = [
    ["messages not an array", { id: "m", messages: "hello" }],
    ["a message that is not an object", { id: "m", messages: [null] }],
    ["parts not an array", { id: "m", messages: [{ role: "user", parts: "hello" }] }],
    ["parts of the wrong types", { id: "m", messages: [{ role: "user", parts: [null, 5, { type: "text", text: 7 }] }] }],
    ["an assistant message whose parts are not objects", { id: "m", messages: [{ role: "assistant", parts: [null, "x", 3] }] }],
    ["an id that is not a string", { id: { $ne: 1 }, messages: [] }],
    ["a huge id", { ...chatBody("x".repeat(100_000)) }],
    ["an id with a control character", { ...chatBody("a\nb") }],
    ["a body that is an array", [chatBody("m")]],
  ];
  for (const [name, body] of malformed) {
    test(`malformed useChat body — ${name}: 400 REQUEST_INVALID, no stack`, async () => {
      const res = await post(`${s.url}/chat/Support`, body);
      expect(res.status).toBe(400);
      const error = ((await res.json()) as any).error;
      expect(error.code).toBe("REQUEST_INVALID");
      expect(error.message).not.toContain("    at ");
    });
  }

  test("a chat id with path characters (../) is a key in the threads store, never a path", async () => {
    const before = readdirSync(dir).sort();
    fake.script([{ text: "Hi." }]);
    const chat = chatClient(s.url);
    const turn = await chat.send("Support", "../../../../tmp/evil", [chat.user("hello")]);
    expect(turn.errors).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(before);
    // The store files the thread under a digest of its id; the id itself is kept only as data (for listing).
    const stored = JSON.parse(await Bun.file(`${dir}/threads.json`).text()) as { threads: Record<string, { id?: string }> };
    expect(Object.keys(stored.threads).some((key) => key.includes("evil") || key.includes("/"))).toBe(false);
  });
});

describe("issue #26 §4 attacks: headers", () => {
  test("a header smuggled into the Origin is not echoed: no injected header, no CORS", async () => {
    const c = await serve(project(program), ["--cors", "https://app.example.com"], env);
    try {
      const raw = await rawSocket(c.url);
      raw.socket.write("OPTIONS /chat/Support HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example.com\rX-Injected: 1\r\n\r\n");
      await Promise.race([raw.closed, Bun.sleep(2_000)]);
      raw.socket.destroy();
      expect(raw.received().toLowerCase()).not.toContain("x-injected");
      expect(raw.received().toLowerCase()).not.toContain("access-control-allow-origin");
      const lookalike = await fetch(`${c.url}/chat/Support`, { method: "OPTIONS", headers: { origin: "https://app.example.com.evil.test" } });
      expect(lookalike.status).toBe(403);
      expect(lookalike.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await c.stop();
    }
  });

  test("wrong tokens — another of the same length, a prefix, the token with more after it, another scheme — are all 401", async () => {
    const token = "s3cret-token-0123456789";
    const t = await serve(project(program), [], { ...env, LUMA_SERVE_TOKEN: token });
    try {
      const wrong = [`Bearer ${"x".repeat(token.length)}`, `Bearer ${token.slice(0, -1)}`, `Bearer ${token}x`, `Bearer ${token} ${token}`, `Basic ${token}`, token];
      for (const authorization of wrong) expect((await post(`${t.url}/agents/Support/ping`, {}, { authorization })).status).toBe(401);
      expect((await post(`${t.url}/agents/Support/ping`, {}, { authorization: `Bearer ${token}` })).status).toBe(200);
      expect(t.stderr()).not.toContain(token);
    } finally {
      await t.stop();
    }
  });
});

describe("issue #26 §4 attacks: SIGTERM during streams", () => {
  test("streams in flight at SIGTERM finish whole; past the drain deadline they end with an error part; exit 0 both times", async () => {
    const finishing = await serve(project(program), [], env);
    const calls: FakeTurn[] = [0, 1, 2].map((i) => ({ toolCalls: [{ name: "slow_lookup", args: { id: i }, id: `call_${i}` }] }));
    fake.script([...calls, { text: "Done." }, { text: "Done." }, { text: "Done." }]);
    const chat = chatClient(finishing.url);
    const turns = [0, 1, 2].map((i) => chat.send("Support", `term-${i}`, [chat.user(`order ${i}`)]));
    await Bun.sleep(600);
    const stopped = finishing.stop("SIGTERM");
    const ended = await Promise.all(turns);
    for (const t of ended) expect([t.errors, t.message.parts.at(-1)?.type]).toEqual([[], "text"]);
    expect((await stopped).exitCode).toBe(0);

    const cut = await serve(project(program), [], { ...env, LUMA_SERVE_DRAIN_MS: "100", SLOW_MS: "20000" });
    fake.script([{ toolCalls: [{ name: "slow_lookup", args: { id: 9 }, id: "call_9" }] }]);
    const cutChat = chatClient(cut.url);
    const cutTurn = cutChat.send("Support", "term-cut", [cutChat.user("order 9")]);
    await Bun.sleep(600);
    const t0 = Date.now();
    const cutStopped = await cut.stop("SIGTERM");
    const aborted = await cutTurn;
    expect(aborted.errors.length).toBe(1);
    expect(cutStopped.exitCode).toBe(0);
    expect(Date.now() - t0).toBeLessThan(8_000);
  });
});
