/**
 * An MCP server's log lines and progress (docs/mcp.md "Log lines and progress from a server"),
 * through `dist/luma`: with `--trace` they are `mcp.log` / `mcp.progress` events and the call
 * carries a progress token; a line at `warning` or above goes to stderr, trace or not; without
 * a trace no progress token is sent (cheap when off).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { project, runLumaAsync, stdioServers } from "./mcp-harness";

setDefaultTimeout(60_000);

const PROGRAM = `schema Said { text: string }
tool chatty() -> Said { mcp: "local"  side_effects: "read" }
print(tool chatty({}).text)
`;

describe("MCP client: log and progress notifications from servers", () => {
  test("with --trace: a progress token is sent; progress and every log line are trace events; the warning is on stderr", async () => {
    const p = project({ mcp_servers: { local: stdioServers().local } }, PROGRAM);
    const r = await runLumaAsync([p.file, "--trace", "run.jsonl"], { cwd: p.dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("token\n");
    expect(r.stderr).toBe(`warning: MCP server 'local' (index) logged warning: {"note":"index is stale"}\n`);
    const events = readFileSync(join(p.dir, "run.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const mcp = events.filter((e) => e.event.startsWith("mcp.")).map(({ ts, ...e }) => e);
    expect(mcp).toEqual([
      { event: "mcp.log", server: "local", level: "info", logger: "index", message: "opened the index" },
      { event: "mcp.log", server: "local", level: "warning", logger: "index", message: '{"note":"index is stale"}' },
      { event: "mcp.progress", server: "local", tool: "chatty", progress: 1, total: 2, message: "half" },
      { event: "mcp.progress", server: "local", tool: "chatty", progress: 2, total: 2, message: null },
    ]);
  });

  test("without a trace: no progress token; info lines are dropped, the warning still reaches stderr", async () => {
    const p = project({ mcp_servers: { local: stdioServers().local } }, PROGRAM);
    const r = await runLumaAsync([p.file], { cwd: p.dir });
    expect(r.stdout).toBe("no token\n");
    expect(r.stderr).toBe(`warning: MCP server 'local' (index) logged warning: {"note":"index is stale"}\n`);
  });
});
