/**
 * Issue #26's "Done when" for a built executable (`luma build`): `OUT --luma-serve`, `OUT
 * --luma-chat` and `OUT --luma-mcp` are `luma serve|chat|mcp FILE …` on the embedded program.
 * One build (shared by every test: builds are slow) of a program with a tool module and an
 * embedded config (a sqlite "threads" store); the built file runs alone from a directory that
 * holds none of the sources — they are deleted after the build — with no `bun` on PATH,
 * against the fake provider, driven by the AI SDK's own chat client and the official MCP SDK
 * client.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { KEYS } from "../ask/ask-harness";
import { orderSupport } from "../serve/chat-programs";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { chatClient, textOf } from "../serve/chat-client";
import { post, serveCommand, type Served } from "../serve/serve-harness";
import { connectCommand, textJson } from "../mcp/mcp-harness";
import { isolate, lumaBuild, removeAll, tempDir, type Isolated } from "./built-agent-support";

setDefaultTimeout(60_000);

const PROGRAM = `${orderSupport("  fn status(id: int) -> Order { return tool lookup_order({ id: id }) }\n")}print("args: {args}")
`;
const TOOLS = `export const lumaTools = { lookup_order: (i: { id: number }) => ({ id: i.id, status: "shipped" }) };\n`;

const fake = await startFakeProvider();
/** An OAuth issuer's metadata and (empty) key set: all `mcp_serve.oauth` reads before a token comes. */
const issuer = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req): Response {
    const path = new URL(req.url).pathname;
    if (path === "/.well-known/oauth-authorization-server") return Response.json({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks`, token_endpoint: `${ISSUER}/token` });
    if (path === "/jwks") return Response.json({ keys: [] });
    return new Response("not found", { status: 404 });
  },
});
const ISSUER: string = `http://127.0.0.1:${issuer.port}`;
let out: string;
let agent: Isolated;
let build: ReturnType<typeof lumaBuild>;

beforeAll(() => {
  out = tempDir("luma-build-serving-");
  const src = tempDir("luma-build-serving-src-");
  writeFileSync(join(src, "main.luma"), PROGRAM);
  writeFileSync(join(src, "tools.ts"), TOOLS);
  // The issuer is read for its metadata at start-up; no token is ever presented to it.
  writeFileSync(join(src, "luma.config.json"), JSON.stringify({ threads: { backend: "sqlite" }, mcp_serve: { oauth: { issuer: ISSUER } } }));
  build = lumaBuild([join(src, "main.luma"), "--tool-module", join(src, "tools.ts"), "--config", join(src, "luma.config.json"), "-o", join(out, "orders")]);
  // The point of a built agent: nothing of the project is left where it runs (or anywhere).
  removeAll(src);
  if (build.exitCode === 0) agent = isolate(join(out, "orders"));
}, 180_000);

afterAll(() => {
  fake.stop();
  issuer.stop(true);
  removeAll(out, ...(agent ? [agent.dir, agent.path] : []));
});

const env = (more: Record<string, string> = {}): Record<string, string> => ({
  PATH: agent.path, HOME: agent.dir, NO_COLOR: "1", LUMA_NO_CACHE: "1", ...KEYS.openai, LUMA_BASE_URL_M: fake.baseUrl("openai"), ...more,
});

/** Runs the built file to its end (`Bun.spawn`, not spawnSync: the fake provider answers from this process). */
async function runBuilt(args: string[], stdin = "", more: Record<string, string> = {}) {
  const p = Bun.spawn([agent.bin, ...args], { cwd: agent.dir, env: env(more), stdin: new Blob([stdin]), stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill("SIGKILL"), 30_000);
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  return { stdout, stderr, exitCode };
}

describe("a built agent serves its program: OUT --luma-serve", () => {
  let s: Served;
  beforeAll(async () => {
    expect(build.exitCode).toBe(0);
    s = await serveCommand([agent.bin, "--luma-serve", "--http", "127.0.0.1:0"], agent.dir, env());
  });
  afterAll(() => s?.stop());

  test("the build left no source beside the executable", () => {
    expect(existsSync(join(agent.dir, "main.luma"))).toBe(false);
    expect(existsSync(join(agent.dir, "tools.ts"))).toBe(false);
    expect(s.stderr()).toContain("agents: Support");
    // The embedded config's "threads" store keeps the chats (not this process's memory).
    expect(s.stderr()).toContain("chat threads: sqlite");
  });

  test("POST /agents/Support/status answers the typed result, through the embedded tool module", async () => {
    const res = await post(`${s.url}/agents/Support/status`, { id: 7 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 7, status: "shipped" });
  });

  test("POST /chat/Support streams through the AI SDK's client: text, the tool call, the answer", async () => {
    fake.script([{ text: "Let me look. ", toolCalls: [{ name: "lookup_order", args: { id: 7 }, id: "call_1" }] }, { text: "Order 7 has shipped." }]);
    const chat = chatClient(s.url);
    const turn = await chat.send("Support", "built", [chat.user("Where is order 7?")]);
    expect(turn.errors).toEqual([]);
    expect(turn.message.parts.map((p) => p.type)).toEqual(["step-start", "text", "tool-lookup_order", "step-start", "text"]);
    expect(textOf(turn.message)).toBe("Let me look. Order 7 has shipped.");
    expect(fake.requests[0].body.stream).toBe(true);
    expect(fake.requests[0].body.messages[0]).toEqual({ role: "system", content: "You help with orders." });
  });
});

describe("a built agent chats in the terminal: OUT --luma-chat", () => {
  test("each stdin line answered, streamed from the model, a tool call on stderr", async () => {
    fake.script([
      { text: "Let me look. ", toolCalls: [{ name: "lookup_order", args: { id: 7 }, id: "call_1" }] },
      { text: "Order 7 has shipped." },
      { text: "Thursday." },
    ]);
    const r = await runBuilt(["--luma-chat", "--agent", "Support"], "Where is order 7?\nWhen does it arrive?\n");
    expect(r.stderr).toMatch(/^· lookup_order ok \d+ ms\n$/);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("Let me look. Order 7 has shipped.\nThursday.\n");
    const third = fake.requests[2].body;
    expect(third.stream).toBe(true);
    expect(third.messages.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "user"]);
  });

  test("--thread ID continues a thread of the embedded config's sqlite store, created in the working directory", async () => {
    fake.script([{ text: "Noted." }]);
    expect((await runBuilt(["--luma-chat", "--agent", "Support", "--thread", "t1"], "My order is 7.\n")).stdout).toBe("Noted.\n");
    fake.script([{ text: "It is 7." }]);
    const r = await runBuilt(["--luma-chat", "--agent", "Support", "--thread", "t1"], "Which order?\n");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("It is 7.\n");
    expect(fake.requests[0].body.messages.map((m: any) => m.content)).toEqual(["You help with orders.", "My order is 7.", "Noted.", "Which order?"]);
  });
});

describe("a built agent serves MCP: OUT --luma-mcp", () => {
  test("the official SDK client lists and calls the tool and the agent's method over stdio", async () => {
    const session = await connectCommand(agent.bin, ["--luma-mcp"], { env: env(), cwd: agent.dir });
    try {
      const names = (await session.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("lookup_order");
      const method = names.find((n) => n !== "lookup_order" && n.includes("status"));
      expect(method).toBeDefined();
      expect(textJson(await session.client.callTool({ name: "lookup_order", arguments: { id: 3 } }))).toEqual({ id: 3, status: "shipped" });
      expect(textJson(await session.client.callTool({ name: method!, arguments: { id: 4 } }))).toEqual({ id: 4, status: "shipped" });
    } finally {
      await session.close();
    }
  });
});

describe("a built agent serves MCP over HTTP under its embedded config's mcp_serve: OUT --luma-mcp --http", () => {
  test("the embedded mcp_serve.oauth protects /mcp: no token, 401 with the Bearer challenge; its metadata names the issuer", async () => {
    const s = await serveCommand([agent.bin, "--luma-mcp", "--http", "127.0.0.1:0"], agent.dir, env());
    try {
      const res = await fetch(s.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(res.status).toBe(401);
      const origin = new URL(s.url).origin;
      expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
      const metadata = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as { authorization_servers: string[] };
      expect(metadata.authorization_servers).toEqual([ISSUER]);
    } finally {
      await s.stop();
    }
  });
});

describe("a built agent's serving options are luma's, less the build-time ones", () => {
  test("--luma-serve --tool-module: a usage error (64) naming the executable", async () => {
    const r = await runBuilt(["--luma-serve", "--tool-module", "x.ts"]);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain(`${basename(agent.bin)}: --tool-module was decided when this agent was built`);
  });

  test("--luma-mcp --generate-tool-types is unknown to luma mcp too: 64", async () => {
    const r = await runBuilt(["--luma-mcp", "--generate-tool-types", "x.d.ts"]);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain(`${basename(agent.bin)}: unknown option --generate-tool-types`);
  });

  test("--luma-serve --http 0.0.0.0:0 without LUMA_SERVE_TOKEN: refused at start-up (2), as luma serve", async () => {
    const r = await runBuilt(["--luma-serve", "--http", "0.0.0.0:0"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("LUMA_SERVE_TOKEN");
  });

  test("--luma-chat without --agent: luma chat's usage error (64)", async () => {
    const r = await runBuilt(["--luma-chat"]);
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toContain("--agent NAME");
  });

  test("the program's own args are untouched: `OUT serve` and a later `--luma-serve` are ARGS", async () => {
    expect((await runBuilt(["serve", "x"])).stdout).toBe(`args: ["serve","x"]\n`);
    expect((await runBuilt(["--", "--luma-serve"])).stdout).toBe(`args: ["--luma-serve"]\n`);
  });

  test("OUT --help lists the three serving lines, from luma's command table", async () => {
    const r = await runBuilt(["--help"]);
    expect(r.stdout).toContain("orders --luma-serve [--http HOST:PORT] [--agent NAME]… [--cors ORIGIN] [--agent-args AGENT=JSON]… [--config PATH]");
    expect(r.stdout).toContain("orders --luma-chat --agent NAME [--method NAME] [--thread ID]");
    expect(r.stdout).toContain("orders --luma-mcp [--agent NAME]");
    expect(r.stdout).not.toMatch(/--luma-\w+ [^\n]*--tool-module/);
  });
});
