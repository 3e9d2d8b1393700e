/**
 * MCP tools behind Luma contracts (docs/mcp.md), through `dist/luma` against real SDK
 * servers over stdio: the official `@modelcontextprotocol/server-everything` and the
 * small SDK server in fixtures/stdio-server.ts. The contract stays in `.luma`: input is
 * validated before the call, the result after it; start-up rejects what cannot work; a
 * server that dies fails only its own tools.
 */
import { describe, expect, test, setDefaultTimeout } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { project, stdioServers, tempDir } from "./mcp-harness";

// Real servers start here (bun, the SDK, server-everything): a loaded machine needs more than 5 s.
setDefaultTimeout(30_000);

const run = (config: object, program: string, env: Record<string, string> = {}) => {
  const p = project(config, program);
  return { ...runLuma([p.file], { cwd: p.dir, env }), dir: p.dir };
};

const SEARCH = `
schema Hits { hits: string[] }
tool search(q: string @length(1, 20), limit?: int) -> Hits { mcp: "local"  side_effects: "read" }
`;

describe("MCP client: tools declared with mcp: run through their contracts", () => {
  test("structuredContent is the value; the MCP tool name defaults to the Luma name, mcp_tool overrides", () => {
    const r = run(
      { mcp_servers: stdioServers() },
      `${SEARCH}
schema EchoText { text: string }
schema Weather { temperature: float  conditions: string  humidity: float }
tool echo(message: string) -> EchoText { mcp: "everything"  side_effects: "read" }
tool weather(location: string) -> Weather { mcp: "everything"  mcp_tool: "get-structured-content"  side_effects: "read" }
print(tool search({q: "mcp", limit: 2}).hits)
print(tool echo({message: "hello"}).text)
print(tool weather({location: "Chicago"}).conditions)
`,
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('["mcp-1","mcp-2"]\nEcho: hello\nLight rain / drizzle\n');
    expect(r.exitCode).toBe(0);
  });

  test("input is validated against the contract before the call (TOOL_INPUT_INVALID)", () => {
    const r = run({ mcp_servers: stdioServers() }, `${SEARCH}\ntool search({q: args[0]})\n`);
    // `luma main.luma` gets no args: args[0] is null, the contract wants a string.
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("[TOOL_INPUT_INVALID] search.input.q");
  });

  test("the result is validated against the return schema (TOOL_OUTPUT_INVALID)", () => {
    const r = run(
      { mcp_servers: stdioServers() },
      `schema Hits { hits: int[] }\ntool search(q: string) -> Hits { mcp: "local"  side_effects: "read" }\ntool search({q: "x"})\n`,
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("[TOOL_OUTPUT_INVALID] search.output.hits[0]");
  });

  test("an isError result with plain text is MCP_TOOL_ERROR carrying the server's text", () => {
    const r = run(
      { mcp_servers: stdioServers() },
      `schema T { text: string }\ntool boom() -> T { mcp: "local" }\ntry { tool boom({}) } catch e { print(e.code + ": " + e.message) }\n`,
    );
    expect(r.stdout).toBe("MCP_TOOL_ERROR: MCP server 'local' reported an error from tool 'boom': the index is corrupt\n");
  });

  test("a stdio server gets only the default variables and its own env, not Luma's environment", () => {
    const r = run(
      { mcp_servers: stdioServers({ local: { command: "bun", args: [join(import.meta.dir, "fixtures/stdio-server.ts")], env: { GIVEN: "yes" } } }) },
      `schema V { value: string }
tool probe(name: string) -> V { mcp: "local"  mcp_tool: "env-probe"  side_effects: "read" }
print(tool probe({name: "OPENAI_API_KEY"}).value)
print(tool probe({name: "GIVEN"}).value)
`,
      { OPENAI_API_KEY: "sk-secret-value" },
    );
    expect(r.stdout).toBe("(unset)\nyes\n");
  });
});

describe("MCP client: faults stay contained", () => {
  test("a server dying mid-run fails only its own tools (retryable TOOL_UNAVAILABLE); the next call restarts it", () => {
    const dir = tempDir();
    const starts = join(dir, "starts.txt");
    writeFileSync(starts, "");
    const r = run(
      { mcp_servers: stdioServers({ local: { command: "bun", args: [join(import.meta.dir, "fixtures/stdio-server.ts")], env: { MCP_STARTS_FILE: starts } } }) },
      `schema T { text: string }
schema N { starts: int }
tool crash() -> T { mcp: "local" }
tool starts() -> N { mcp: "local"  side_effects: "read" }
tool echo(message: string) -> T { mcp: "everything"  side_effects: "read" }
try { tool crash({}) } catch e { print(e.code + " retryable=" + str(e.retryable)) }
print(tool echo({message: "still here"}).text)
print(tool starts({}).starts)
`,
    );
    expect(r.stdout).toBe("TOOL_UNAVAILABLE retryable=true\nEcho: still here\n2\n");
    expect(r.exitCode).toBe(0);
    expect(readFileSync(starts, "utf8")).toBe("start\nstart\n");
  });
});

describe("MCP client: start-up errors (exit 2, before the first statement)", () => {
  const startup = (config: object, program: string) => {
    const r = run(config, `print("no statement may run")\n${program}`);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    return r.stderr;
  };

  test("a contract field whose type differs from the server's names tool, field and server", () => {
    const err = startup({ mcp_servers: stdioServers() }, `schema Hits { hits: string[] }\ntool search(q: int) -> Hits { mcp: "local" }\n`);
    expect(err).toContain("Tool 'search' does not fit MCP server 'local': field 'q' is integer in the contract but string on the server.");
  });

  test("a field the server requires that the contract lacks (or makes optional)", () => {
    const lacks = startup({ mcp_servers: stdioServers() }, `schema Hits { hits: string[] }\ntool search(limit: int) -> Hits { mcp: "local" }\n`);
    expect(lacks).toContain("Tool 'search' does not fit MCP server 'local': the server requires field 'q', which the contract lacks.");
    const optional = startup({ mcp_servers: stdioServers() }, `schema Hits { hits: string[] }\ntool search(q?: string) -> Hits { mcp: "local" }\n`);
    expect(optional).toContain("the server requires field 'q', which the contract makes optional.");
  });

  test("a tool the server does not offer is the usual not-registered error, naming the server", () => {
    const err = startup({ mcp_servers: stdioServers() }, `schema T { text: string }\ntool nothere() -> T { mcp: "local" }\n`);
    expect(err).toContain("Error: 'nothere' is not registered in the tool registry: MCP server 'local' has no tool 'nothere'.");
  });

  test("a server that fails to start is a start-up error naming it", () => {
    const err = startup(
      { mcp_servers: { broken: { command: "/nonexistent/mcp-server" } } },
      `schema T { text: string }\ntool t() -> T { mcp: "broken" }\n`,
    );
    expect(err).toContain("MCP server 'broken' (/nonexistent/mcp-server) failed to start");
  });

  test("a server that exits before answering is a start-up error naming it", () => {
    const err = startup({ mcp_servers: { quits: { command: "bun", args: ["-e", "process.exit(1)"] } } }, `schema T { text: string }\ntool t() -> T { mcp: "quits" }\n`);
    expect(err).toContain("MCP server 'quits' (bun) failed to start");
  });

  test("a server name missing from mcp_servers", () => {
    const err = startup({ mcp_servers: stdioServers() }, `schema T { text: string }\ntool t() -> T { mcp: "docs" }\n`);
    expect(err).toContain("Tool 't' names MCP server 'docs', which mcp_servers in luma.config.json does not declare (declared: everything, local).");
  });

  test("config: an entry with both command and url, or neither, is rejected naming the key", () => {
    const both = startup({ mcp_servers: { x: { command: "a", url: "http://127.0.0.1:1/mcp" } } }, "");
    expect(both).toContain("'mcp_servers.x.command' and 'mcp_servers.x.url' cannot be used together");
    const neither = startup({ mcp_servers: { x: { args: ["a"] } } }, "");
    expect(neither).toContain(`'mcp_servers.x' needs "command" or "url"`);
  });

  test("a tool module may not also provide an mcp: tool (registry conflict)", () => {
    const p = project({ mcp_servers: stdioServers() }, `schema Hits { hits: string[] }\ntool search(q: string) -> Hits { mcp: "local" }\n`);
    writeFileSync(join(p.dir, "m.ts"), "export const search = () => ({ hits: [] });\n");
    const r = runLuma([p.file, "--tool-module", join(p.dir, "m.ts")], { cwd: p.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Tool registry conflict: search.");
  });
});

describe("luma mcp import NAME: Luma declarations from a server's tool list", () => {
  test("the declarations for server-everything check, and a program using them runs", () => {
    const p = project({ mcp_servers: stdioServers() }, "");
    const imported = runLuma(["mcp", "import", "everything"], { cwd: p.dir });
    expect(imported.exitCode).toBe(0);
    expect(imported.stdout).toContain('tool echo(\n  message: string @desc("Message to echo")\n) -> McpResult {\n  mcp: "everything"');
    expect(imported.stdout).toContain('mcp_tool: "get-sum"');
    writeFileSync(p.file, `${imported.stdout}\nprint(tool echo({message: "imported"}).text)\nprint(tool get_structured_content({location: "Chicago"}).humidity)\n`);
    expect(runLuma(["check", p.file]).exitCode).toBe(0);
    const r = runLuma([p.file], { cwd: p.dir });
    expect(r.stdout).toBe("Echo: imported\n82\n");
  });

  test("schemas come from inputSchema/outputSchema: required fields, optional ones, types", () => {
    const p = project({ mcp_servers: stdioServers() }, "");
    const out = runLuma(["mcp", "import", "local"], { cwd: p.dir }).stdout;
    expect(out).toContain("schema SearchResult {\n  hits: string[]\n}");
    expect(out).toContain('tool search(\n  q: string,\n  limit?: int\n) -> SearchResult {\n  mcp: "local"\n  side_effects: "read"\n  description: "Finds documents"\n}');
    expect(out).toContain('tool env_probe(\n  name: string\n) -> McpResult {\n  mcp: "local"\n  mcp_tool: "env-probe"\n  side_effects: "write"');
  });

  test("an unknown server NAME is a start-up error listing the declared ones", () => {
    const p = project({ mcp_servers: stdioServers() }, "");
    const r = runLuma(["mcp", "import", "nope"], { cwd: p.dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("MCP server 'nope' is not declared in mcp_servers");
    expect(r.stderr).toContain("(declared: everything, local)");
  });
});
