/**
 * The MCP client against hostile servers (docs/mcp.md, "Calling MCP tools"), through
 * `dist/luma`: fixtures/hostile-server.ts is a raw JSON-RPC stdio server that logs every
 * message it gets and its pid, and misbehaves as its mode says. The waits are for lines in
 * that log, or for a process to be gone, never for a duration.
 */
import { describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";
import { startDroppingServer } from "./fixtures/dropping-http-server";
import { FIXTURES, project, runLumaAsync, until } from "./mcp-harness";

setDefaultTimeout(30_000);

const HOSTILE = join(FIXTURES, "hostile-server.ts");

function hostileProject(mode: string, program: string, arg?: string) {
  const config = { mcp_servers: { h: { command: "bun", args: [HOSTILE, mode, "log.jsonl", ...(arg === undefined ? [] : [arg])] } } };
  const p = project(config, program);
  // Whole lines only: the server may be appending one while the test reads.
  const log = () =>
    existsSync(join(p.dir, "log.jsonl")) ? readFileSync(join(p.dir, "log.jsonl"), "utf8").split("\n").slice(0, -1).map((l) => JSON.parse(l)) : [];
  return { ...p, log };
}

/** Gone, or a zombie waiting for whoever adopted it to reap it: not running either way. */
const gone = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].startsWith("Z");
  } catch {
    return true;
  }
};

const CALL_FOREVER = `schema R { ok: bool }
tool work() -> R { mcp: "h"  side_effects: "read"  timeout: 600000 }
print(tool work({}).ok)
`;

function startCall() {
  const p = hostileProject("hang", CALL_FOREVER);
  const proc = Bun.spawn([ensureBinary(), "main.luma"], {
    cwd: p.dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LUMA_NO_CACHE: "1", NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { ...p, proc };
}

describe("MCP client: a signal while an MCP call is in flight", () => {
  test("the first SIGTERM reaches the server as notifications/cancelled; a server ignoring stdin EOF and SIGTERM is killed; exit 143", async () => {
    const s = startCall();
    await until(() => s.log().some((m) => m.method === "tools/call"));
    const pid = s.log()[0].pid;
    s.proc.kill("SIGTERM");
    expect(await s.proc.exited).toBe(143);
    const call = s.log().find((m) => m.method === "tools/call");
    expect(s.log().find((m) => m.method === "notifications/cancelled")?.params.requestId).toBe(call.id);
    await until(() => gone(pid));
  });

  test("a second signal exits at once, and the stdio server still does not outlive luma", async () => {
    const s = startCall();
    await until(() => s.log().some((m) => m.method === "tools/call"));
    const pid = s.log()[0].pid;
    s.proc.kill("SIGINT");
    await until(() => s.log().some((m) => m.method === "notifications/cancelled"));
    s.proc.kill("SIGINT");
    expect(await s.proc.exited).toBe(130);
    await until(() => gone(pid));
  });
});

describe("MCP client: a stdio server's oversized answer", () => {
  const HUGE = `schema R { text: string }
tool work(size: int) -> R { mcp: "h"  side_effects: "read" }
`;
  const run = async (program: string) => {
    const p = hostileProject("huge", HUGE + program);
    return { ...(await runLumaAsync([p.file], { cwd: p.dir })), log: p.log };
  };

  test("a 20 MB answer arrives whole (the SDK's 10 MiB default closed the connection under it)", async () => {
    const r = await run(`print(len(tool work({size: 20000000}).text))\n`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("20000000\n");
    expect(r.exitCode).toBe(0);
  });

  test("an answer over 64 MiB is a non-retryable MCP_ERROR naming the server and the limit; the next call restarts the server", async () => {
    const r = await run(`try { tool work({size: 70000000}) } catch e { print(e.code, e.retryable, e.message) }
print(len(tool work({size: 10}).text))
`);
    expect(r.stdout).toBe(
      "MCP_ERROR false MCP server 'h' sent a message larger than 64 MiB (the limit of one stdio message) during tool 'work'; Luma closed the connection.\n10\n",
    );
    expect(r.exitCode).toBe(0);
    expect(r.log().filter((m) => m.pid !== undefined)).toHaveLength(2);
    // Writing and refusing 70 MB through a pipe takes seconds on a loaded 2-core machine.
  }, 120_000);
});

describe("MCP client: a server's malformed answer", () => {
  test("a result that is not a CallToolResult is a non-retryable MCP_ERROR naming the fields, not an unreachable server", async () => {
    const p = hostileProject("badresult", `schema R { ok: bool }
tool work() -> R { mcp: "h"  side_effects: "read" }
try { tool work({}) } catch e { print(e.code, e.retryable, e.message) }
`);
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.stdout).toBe(
      "MCP_ERROR false MCP server 'h' answered tool 'work' with an invalid result: content: Invalid input: expected array, received string; isError: Invalid input: expected boolean, received string.\n",
    );
    expect(r.exitCode).toBe(0);
  });
});

describe("MCP client: a rude stdio server", () => {
  test("garbage lines and requests the client never announced (sampling, elicitation, roots) do not break the call; each request is refused", async () => {
    const p = hostileProject("rude", `schema R { ok: bool }
tool work() -> R { mcp: "h"  side_effects: "read" }
print(tool work({}).ok)
`);
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    // Its `error` log line is the one thing on stderr (a server's lines from `warning` up are shown).
    expect(r).toEqual({ exitCode: 0, stdout: "true\n", stderr: "error: MCP server 'h' logged error: log line\n" });
    const refused = p.log().filter((m) => m.id >= 900 && m.error?.code === -32601).map((m) => m.id);
    expect(refused).toEqual([900, 901, 902]);
  });
});

describe("MCP client over Streamable HTTP: an answer stream that closes before the answer", () => {
  for (const how of ["ends", "breaks"] as const) {
    test(`a stream that ${how} unanswered is a retryable TOOL_UNAVAILABLE at once, not a wait for the tool's timeout; the next call reconnects`, async () => {
      const server = await startDroppingServer(how);
      try {
        const p = project(
          { mcp_servers: { d: { url: server.url } } },
          `schema R { ok: bool }
tool work(answer?: bool) -> R { mcp: "d"  side_effects: "read"  timeout: 600000 }
try { tool work({}) } catch e { print(e.code, e.retryable, e.message) }
print(tool work({answer: true}).ok)
`,
        );
        const r = await runLumaAsync([p.file], { cwd: p.dir });
        expect(r.stdout).toBe("TOOL_UNAVAILABLE true Tool 'work' is unavailable: MCP server 'd' closed the connection during the call.\ntrue\n");
        expect(r.exitCode).toBe(0);
        expect(server.initializes()).toBe(2);
      } finally {
        server.stop();
      }
    });
  }
});

describe("MCP client: start-up against a server whose tool list never ends", () => {
  test("a tools/list cursor that repeats is a start-up error naming the server (start-up used to page forever)", async () => {
    const p = hostileProject("paging", `schema R { ok: bool }
tool work() -> R { mcp: "h"  side_effects: "read" }
print(tool work({}).ok)
`);
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `Error: MCP server 'h' (bun) failed to start: tools/list sent the cursor "page-2" a second time (its pages loop)\n  = code E0802 (luma explain E0802)\n`,
    );
    expect(r.stdout).toBe("");
  });
});

describe("MCP client: start-up against a tool list that never ends, each page new", () => {
  // Each page names a new cursor at once: bounded by time alone, start-up held every page it got for 30 s (4.17 GB).
  const PROGRAM = `schema R { ok: bool }\ntool work() -> R { mcp: "h"  side_effects: "read" }\nprint(tool work({}).ok)\n`;
  const cases: [string, string][] = [
    ["tiny", "its tool list did not end within 1000 pages (Luma reads at most that many)"],
    ["many", "its tool list has more than 10000 tools (Luma reads at most that many)"],
    ["fat", "its tool list is larger than 32 MiB (Luma reads at most that much)"],
  ];
  for (const [kind, why] of cases) {
    test(`pages of ${kind === "tiny" ? "one tool" : kind === "many" ? "5,000 tools" : "one 1 MB tool"}: a start-up error naming the server and the bound, long before the 30 s limit`, async () => {
      const p = hostileProject("endless", PROGRAM, kind);
      const r = await runLumaAsync([p.file], { cwd: p.dir });
      expect(r.stderr).toBe(`Error: MCP server 'h' (bun) failed to start: ${why}\n  = code E0802 (luma explain E0802)\n`);
      expect(r.exitCode).toBe(2);
    });
  }
});

describe("luma mcp import: the contracts it writes fit what the server returns", () => {
  test("a tool without an outputSchema that answers JSON as text: the imported McpResult contract gets the text (it was TOOL_OUTPUT_INVALID, text is required)", async () => {
    const p = hostileProject("plain", "");
    const imported = await runLumaAsync(["mcp", "import", "h"], { cwd: p.dir });
    expect(imported.exitCode).toBe(0);
    expect(imported.stdout).toContain("tool work(\n  size?: int\n) -> McpResult {");
    writeFileSync(p.file, `${imported.stdout}\nprint(tool work({ size: 1 }).text)\n`);
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('{"ok":true}\n');
  });

  test("a contract of its own that declares the object's fields still gets the parsed JSON object", async () => {
    const p = hostileProject("plain", `schema Ok { ok: bool }
tool work(size?: int) -> Ok { mcp: "h"  side_effects: "read" }
print(tool work({ size: 1 }).ok)
`);
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("true\n");
  });
});

describe("luma mcp import: a server's names and descriptions cannot write the generated file", () => {
  const names = (out: string) => [...out.matchAll(/^tool (\w+)\(/gm)].map((m) => m[1]);

  test("a newline in a property name, tool name, description, enum value or pattern injects no declaration (it ended a // comment and declared `tool drop_all` with side_effects \"none\")", async () => {
    const p = hostileProject("names", "");
    const r = await runLumaAsync(["mcp", "import", "h"], { cwd: p.dir });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    // The five tools the server lists, each a write; a keyword name and a collision renamed.
    expect(names(r.stdout)).toEqual(["wipe", "wipe_tool_drop_all______Done___mcp___h___side_effects___none____schema_Done___ok__bool_____", "schema_", "a_b", "a_b2"]);
    expect([...r.stdout.matchAll(/side_effects: "(\w+)"/g)].map((m) => m[1])).toEqual(["write", "write", "write", "write", "write"]);
    expect(r.stdout).toContain(String.raw`// "wipe": parameter "x\ntool drop_all() -> Done { mcp: \"h\"  side_effects: \"none\" }\nschema Done { ok: bool }\n//" is not a Luma name and was left out`);
    expect(r.stdout).toContain('  mcp_tool: "a_b"\n');
    // The file checks; a program calling the injected tool does not, as no such tool exists.
    writeFileSync(p.file, r.stdout);
    expect((await runLumaAsync(["check", p.file])).exitCode).toBe(0);
    writeFileSync(p.file, `${r.stdout}\nprint(tool drop_all({}).ok)\n`);
    const calling = await runLumaAsync(["check", p.file]);
    expect(calling.exitCode).not.toBe(0);
    expect(calling.stdout + calling.stderr).toContain("drop_all");
  });

  test("a schema that is not a schema where one goes (items: null, properties as a list) or nests 5,000 deep is `any`, not an internal error", async () => {
    const p = hostileProject("shapes", "");
    const r = await runLumaAsync(["mcp", "import", "h"], { cwd: p.dir });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`tool shapes(\n  odd?: any[],\n  list?: any,\n  deep?: any${"[]".repeat(33)}\n) -> McpResult {`);
    writeFileSync(p.file, r.stdout);
    expect((await runLumaAsync(["check", p.file])).exitCode).toBe(0);
  });
});
