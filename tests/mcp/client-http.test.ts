/**
 * MCP tools over Streamable HTTP (docs/mcp.md): `dist/luma` against the SDK HTTP server of
 * fixtures/http-server.ts, which runs in this test process and records what it received —
 * so "a call past its timeout sends the protocol's cancellation" is seen on the server.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startTestHttpServer, type TestHttpServer } from "./fixtures/http-server";
import { project, runLumaAsync, stdioServers, until } from "./mcp-harness";

// Real servers start here (bun, the SDK, server-everything): a loaded machine needs more than 5 s.
setDefaultTimeout(30_000);

let server: TestHttpServer;
beforeAll(() => void (server = startTestHttpServer()));
afterAll(() => server.stop());

const runProgram = async (config: object, program: string, env: Record<string, string> = {}) => {
  const p = project(config, program);
  return runLumaAsync([p.file], { cwd: p.dir, env });
};

describe("MCP client over Streamable HTTP", () => {
  test("a call past its timeout fails with TOOL_TIMEOUT and sends notifications/cancelled to the server", async () => {
    const r = await runProgram(
      { mcp_servers: { remote: { url: server.url } } },
      `schema W { waited: int }
tool slow(ms: int) -> W { mcp: "remote"  timeout: 200 }
try { tool slow({ms: 60000}) } catch e { print(e.code) }
`,
    );
    expect(r.stdout).toBe("TOOL_TIMEOUT\n");
    await until(() => server.cancelled.includes("slow 60000"));
    expect(server.cancelled).toContain("slow 60000");
  });

  test("headers_env sends a header whose value comes from the environment, never from the config", async () => {
    const r = await runProgram(
      { mcp_servers: { remote: { url: server.url, headers_env: { Authorization: "REMOTE_AUTH" } } } },
      `schema Who { authorization: string }\ntool whoami() -> Who { mcp: "remote"  side_effects: "read" }\nprint(tool whoami({}).authorization)\n`,
      { REMOTE_AUTH: "Bearer s3cret" },
    );
    expect(r.stdout).toBe("Bearer s3cret\n");
  });

  test("a header value the server echoes back in an error is blanked from the message, whole and its token alone", async () => {
    const r = await runProgram(
      { mcp_servers: { remote: { url: server.url, headers_env: { Authorization: "REMOTE_AUTH" } } } },
      `schema R { ok: bool }\ntool leaky() -> R { mcp: "remote"  side_effects: "read" }\ntry { tool leaky({}) } catch e { print(e.code, e.message) }\n`,
      { REMOTE_AUTH: "Bearer s3cret-token" },
    );
    expect(r.stdout).toBe("MCP_TOOL_ERROR MCP server 'remote' reported an error from tool 'leaky': denied for *** (token ***)\n");
    expect(r.stdout + r.stderr).not.toContain("s3cret");
  });

  test("a header variable that is not set is a start-up error naming the header and the variable", async () => {
    const r = await runProgram(
      { mcp_servers: { remote: { url: server.url, headers_env: { Authorization: "REMOTE_AUTH" } } } },
      `schema Who { authorization: string }\ntool whoami() -> Who { mcp: "remote" }\n`,
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("MCP server 'remote': header Authorization needs the environment variable REMOTE_AUTH, which is not set.");
  });

  test("an HTTP server that cannot be reached is a start-up error naming it", async () => {
    const r = await runProgram(
      { mcp_servers: { gone: { url: "http://127.0.0.1:9/mcp" } } },
      `schema Who { authorization: string }\ntool whoami() -> Who { mcp: "gone" }\n`,
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("MCP server 'gone' at http://127.0.0.1:9/mcp failed to start");
  });

  test("a URL's user:password part never appears in a message", async () => {
    const r = await runProgram(
      { mcp_servers: { gone: { url: "http://admin:hunter2@127.0.0.1:9/mcp" } } },
      `schema Who { authorization: string }\ntool whoami() -> Who { mcp: "gone" }\n`,
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("MCP server 'gone' at http://127.0.0.1:9/mcp failed to start");
    expect(r.stderr).not.toContain("hunter2");
  });

  test("a server breaking its own outputSchema is an MCP_ERROR for that call; the run goes on", async () => {
    const r = await runProgram(
      { mcp_servers: { remote: { url: server.url } } },
      `schema N { n: int }
schema Who { authorization: string }
tool liar() -> N { mcp: "remote"  side_effects: "read" }
tool whoami() -> Who { mcp: "remote"  side_effects: "read" }
try { tool liar({}) } catch e { print(e.code) }
print(tool whoami({}).authorization)
`,
    );
    expect(r.stdout).toBe("MCP_ERROR\n(none)\n");
  });

  test("tools of two servers (HTTP and stdio) in one program", async () => {
    const r = await runProgram(
      { mcp_servers: { remote: { url: server.url }, ...stdioServers() } },
      `schema Who { authorization: string }
schema Hits { hits: string[] }
tool whoami() -> Who { mcp: "remote"  side_effects: "read" }
tool search(q: string) -> Hits { mcp: "local"  side_effects: "read" }
print(tool whoami({}).authorization)
print(tool search({q: "z"}).hits[0])
`,
    );
    expect(r.stdout).toBe("(none)\nz-1\n");
  });
});
