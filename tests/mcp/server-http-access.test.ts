/**
 * `luma mcp --http` as an attacker on the network sees it (docs/mcp.md, "Serving"): an
 * address other than loopback serves nobody without the bearer token and the Host names it
 * was told, and sessions that nobody uses any more are reclaimed. "Off loopback" is 0.0.0.0
 * here, reached through 127.0.0.1 only. Clients are the official SDK's, or raw fetches where
 * the test forges what a client would not send. Waits are for answers, never for durations.
 */
import { describe, expect, test, setDefaultTimeout } from "bun:test";
import { runLumaAsync, connectHttp, SERVED, SERVED_TOOLS, startLumaHttp, until } from "./mcp-harness";

setDefaultTimeout(30_000);

const TOKEN = "s3cret-token-for-tests-0123456789";
const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

const post = (url: string, headers: Record<string, string>, body: unknown = INITIALIZE) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(body) });

/** The served URL (printed as 0.0.0.0) as a client on this machine reaches it. */
const viaLoopback = (url: string) => url.replace("//0.0.0.0:", "//127.0.0.1:");

describe("luma mcp --http on an address that is not loopback: start-up", () => {
  const serveOff = (env: Record<string, string>, ...extra: string[]) =>
    runLumaAsync(["mcp", SERVED, "--tool-module", SERVED_TOOLS, "--http", "0.0.0.0:0", ...extra], { env });

  test("without LUMA_MCP_TOKEN and --allowed-hosts it does not start (it served anyone, write tools included)", async () => {
    const r = await serveOff({});
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--http 0.0.0.0:0: 0.0.0.0 is not a loopback address, so anyone who can reach it could call every served tool; serving there needs a bearer token in LUMA_MCP_TOKEN (clients send Authorization: Bearer <token>) and --allowed-hosts");
    expect(r.stderr).toContain("code E0804");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test("a token alone, a host list alone, an empty token or a malformed host entry: each a start-up error naming it", async () => {
    const noHosts = await serveOff({ LUMA_MCP_TOKEN: TOKEN });
    expect(noHosts.exitCode).toBe(2);
    expect(noHosts.stderr).toContain("serving there needs --allowed-hosts, the host names clients reach it by (for the Host check).");
    const noToken = await serveOff({}, "--allowed-hosts", "mcp.example");
    expect(noToken.exitCode).toBe(2);
    expect(noToken.stderr).toContain("serving there needs a bearer token in LUMA_MCP_TOKEN");
    expect(noToken.stderr).not.toContain("--allowed-hosts, the host names");
    const empty = await serveOff({ LUMA_MCP_TOKEN: " " }, "--allowed-hosts", "mcp.example");
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain("LUMA_MCP_TOKEN is set but empty or contains whitespace");
    const bad = await serveOff({ LUMA_MCP_TOKEN: TOKEN }, "--allowed-hosts", "mcp.example,evil/path");
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("--allowed-hosts: 'evil/path' is not a host or host:port");
    const stdio = await runLumaAsync(["mcp", SERVED, "--tool-module", SERVED_TOOLS, "--allowed-hosts", "mcp.example"]);
    expect(stdio.exitCode).toBe(64);
    expect(stdio.stderr).toContain("--allowed-hosts applies to --http only");
  });
});

describe("luma mcp --http on 0.0.0.0 with a token and allowed hosts", () => {
  test("no token, a wrong one, another scheme or a prefix of it: 401 for every path; the token opens it to the SDK client", async () => {
    const server = await startLumaHttp([SERVED, "--tool-module", SERVED_TOOLS, "--allowed-hosts", "127.0.0.1,mcp.example:8443"], { LUMA_MCP_TOKEN: TOKEN }, "0.0.0.0:0");
    const url = viaLoopback(server.url);
    try {
      for (const authorization of [undefined, "Bearer wrong", `Basic ${TOKEN}`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, TOKEN]) {
        const res = await post(url, authorization === undefined ? {} : { authorization });
        expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 });
        expect(res.headers.get("www-authenticate")).toBe('Bearer realm="luma mcp"');
      }
      expect((await fetch(url.replace("/mcp", "/other"))).status).toBe(401);
      const client = await connectHttp(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      try {
        const r = await client.callTool({ name: "calculate", arguments: { a: 4, b: 5, operation: "add" } });
        expect(r.structuredContent).toEqual({ result: 9 });
      } finally {
        await client.close();
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test("the Host must be one of --allowed-hosts (host:port as listed, a bare host on the served port or alone); any other is 403, token or not", async () => {
    const server = await startLumaHttp([SERVED, "--tool-module", SERVED_TOOLS, "--allowed-hosts", "mcp.example:8443,Tools.Internal"], { LUMA_MCP_TOKEN: TOKEN }, "0.0.0.0:0");
    const url = viaLoopback(server.url);
    const port = new URL(url).port;
    const auth = { authorization: `Bearer ${TOKEN}` };
    try {
      for (const host of ["mcp.example:8443", "tools.internal", `tools.internal:${port}`]) {
        expect({ host, status: (await post(url, { ...auth, host })).status }).toEqual({ host, status: 200 });
      }
      // The loopback names are not implied off loopback; a listed host on another port is not it.
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "mcp.example:80", "mcp.example", "evil.example"]) {
        const res = await post(url, { ...auth, host });
        expect({ host, status: res.status }).toEqual({ host, status: 403 });
      }
    } finally {
      await server.stop();
    }
  });
});

describe("luma mcp --http on loopback with LUMA_MCP_TOKEN set", () => {
  test("the token is required there too; the loopback Host names still pass", async () => {
    const server = await startLumaHttp([SERVED, "--tool-module", SERVED_TOOLS], { LUMA_MCP_TOKEN: TOKEN });
    try {
      expect((await post(server.url, {})).status).toBe(401);
      expect((await post(server.url, { authorization: `bearer ${TOKEN}` })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("luma mcp --http: idle sessions are reclaimed", () => {
  const listTools = (url: string, session: string) =>
    post(url, { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" }, { jsonrpc: "2.0", id: 2, method: "tools/list" });

  test("a session nobody uses for LUMA_MCP_SESSION_IDLE_MS is closed and its id is 404; one waiting on an approval is not", async () => {
    const server = await startLumaHttp([SERVED, "--tool-module", SERVED_TOOLS, "--agent", "Guarded"], { LUMA_MCP_SESSION_IDLE_MS: "300" });
    try {
      // A client waiting on the user: its tools/call stays open past the idle time.
      let decide: (yes: boolean) => void = () => {};
      let asked = false;
      const waiting = await connectHttp(server.url, {
        onElicit: () => {
          asked = true;
          return new Promise((resolve) => (decide = (yes) => resolve({ action: "accept", content: { approve: yes } })));
        },
      });
      const call = waiting.callTool({ name: "save_note", arguments: { text: "kept" } });
      await until(() => asked);
      // A client that leaves without DELETE (it crashed): its session stays until reclaimed.
      const gone = await connectHttp(server.url);
      const session = (gone.transport as { sessionId?: string }).sessionId!;
      expect((await listTools(server.url, session)).status).toBe(200);
      await gone.close();
      // Each look at the session is a use of it: look again only after more than the idle time.
      let last = await listTools(server.url, session);
      while (last.status !== 404) {
        await Bun.sleep(1_000);
        last = await listTools(server.url, session);
      }
      expect(await last.json()).toEqual({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null });
      // The sweep that reclaimed it passed over the session still answering: the call completes.
      decide(true);
      expect((await call).structuredContent).toMatchObject({ text: "kept" });
      expect((await waiting.listTools()).tools.map((t) => t.name)).toEqual(["calculate", "save_note"]);
      await waiting.close();
    } finally {
      await server.stop();
    }
  });

  test("LUMA_MCP_SESSION_IDLE_MS that is not a whole number of milliseconds is a start-up error", async () => {
    const r = await runLumaAsync(["mcp", SERVED, "--tool-module", SERVED_TOOLS, "--http", "127.0.0.1:0"], { env: { LUMA_MCP_SESSION_IDLE_MS: "30m" } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("LUMA_MCP_SESSION_IDLE_MS=30m: expected a whole number of milliseconds");
  });
});
