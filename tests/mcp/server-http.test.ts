/**
 * `luma mcp FILE --http HOST:PORT`: Streamable HTTP at /mcp, driven by the official SDK
 * client (docs/mcp.md). Sessions are separate clients of one program: they share its
 * pipeline (idempotency store), and each is asked for its own approvals.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { runLuma } from "../support/luma-binary";
import { connectHttp, SERVED, SERVED_TOOLS, startLumaHttp, textJson, type HttpServer } from "./mcp-harness";

// Real servers start here (bun, the SDK, server-everything): a loaded machine needs more than 5 s.
setDefaultTimeout(30_000);

describe("MCP server over Streamable HTTP", () => {
  let server: HttpServer;
  beforeAll(async () => void (server = await startLumaHttp([SERVED, "--tool-module", SERVED_TOOLS, "--agent", "Guarded"])));
  afterAll(() => server.stop());

  test("tools/list and tools/call work over HTTP, as over stdio", async () => {
    const client = await connectHttp(server.url);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["calculate", "save_note"]);
      const r = await client.callTool({ name: "calculate", arguments: { a: 4, b: 5, operation: "add" } });
      expect(r.structuredContent).toEqual({ result: 9 });
    } finally {
      await client.close();
    }
  });

  test("approval is asked of the session that made the call: one client approves, another without elicitation is denied", async () => {
    const approving = await connectHttp(server.url, { onElicit: () => ({ action: "accept", content: { approve: true } }) });
    const plain = await connectHttp(server.url);
    try {
      const ok = await approving.callTool({ name: "save_note", arguments: { text: "abc" } });
      expect(ok.structuredContent).toEqual({ id: "n-3", text: "abc" });
      const denied = await plain.callTool({ name: "save_note", arguments: { text: "abc" } });
      expect(textJson(denied).code).toBe("TOOL_PERMISSION_DENIED");
    } finally {
      await approving.close();
      await plain.close();
    }
  });

  test("a request whose Host is not the served address is refused (DNS-rebinding protection)", async () => {
    const res = await fetch(server.url, {
      method: "POST",
      headers: { host: "evil.example:80", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(res.status).toBe(403);
  });

  const initialize = (headers: Record<string, string>, extra = "") =>
    fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" }, pad: extra } }),
    });

  test("a request from a page of another origin is refused (the protocol's MUST); the served origin and no Origin pass", async () => {
    const refused = await initialize({ origin: "http://evil.example" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Invalid Origin header: http://evil.example");
    expect((await initialize({ origin: new URL(server.url).origin })).status).toBe(200);
    expect((await initialize({})).status).toBe(200);
  });

  test("a request body up to 64 MiB is read (the SDK's HTTP default refused 4 MiB with 413); a larger one is 413", async () => {
    expect((await initialize({}, "x".repeat(6_000_000))).status).toBe(200);
    const tooLarge = await initialize({}, "x".repeat(65 * 1024 * 1024));
    expect(tooLarge.status).toBe(413);
  });

  test("an unknown session id is 404, another path is 404", async () => {
    const res = await fetch(server.url, { method: "POST", headers: { "mcp-session-id": "nope", "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(404);
    expect((await fetch(server.url.replace("/mcp", "/other"))).status).toBe(404);
  });

  test("SIGTERM stops the server with exit code 0", async () => {
    const other = await startLumaHttp([SERVED, "--tool-module", SERVED_TOOLS]);
    expect(await other.stop()).toBe(0);
  });
});

describe("luma mcp usage and start-up errors", () => {
  test("--http with a bad address is a start-up error (exit 2)", () => {
    const r = runLuma(["mcp", SERVED, "--tool-module", SERVED_TOOLS, "--http", "nowhere"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--http nowhere: expected HOST:PORT or PORT");
  });

  test("--agent naming no agent is a start-up error listing the agents", () => {
    const r = runLuma(["mcp", SERVED, "--tool-module", SERVED_TOOLS, "--agent", "Nobody"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--agent Nobody: the program declares no agent 'Nobody' (agents: Guarded, ReadOnly).");
  });

  test("a program that fails its start-up checks is rejected before serving (missing handler: exit 2)", () => {
    const r = runLuma(["mcp", SERVED]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'save_note' is not registered in the tool registry.");
  });

  test("usage errors exit 64: no FILE, an unknown option, import without NAME", () => {
    expect(runLuma(["mcp"]).exitCode).toBe(64);
    expect(runLuma(["mcp", SERVED, "--bogus"]).stderr).toContain("unknown option --bogus for luma mcp");
    expect(runLuma(["mcp", "import"]).exitCode).toBe(64);
    expect(runLuma(["mcp", "import", "x", "--agent", "A"]).exitCode).toBe(64);
  });

  test("stdio: the server exits 0 when the client closes its stdin", () => {
    const r = runLuma(["mcp", SERVED, "--tool-module", SERVED_TOOLS], { stdin: "" });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
  });
});
