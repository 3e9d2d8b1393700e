/**
 * Issue #10.4 through the real binary: a tool handler cannot end the run unnoticed. A
 * `process.exit()` (or `abort`, or `kill` of its own pid) inside a handler — synchronously or
 * after an `await` — is a tool failure naming the tool (TOOL_HANDLER_ERROR, catchable); one
 * from code no call awaits (a timer) ends the run with exit 1 and an error naming the tool in
 * flight, after its claim is released and its trace event written. Under no policy and under
 * strict (a CommonJS module in the VM context reaching the host `process`; an ES module with
 * the real globals). See src/runtime/base/exit-guard.ts.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-exit-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const HANDLERS = `
  sync_exit: (input) => { process.exit(input.n); return { ok: true }; },
  async_exit: async (input) => { await new Promise((r) => setTimeout(r, 5)); process.exit(input.n); return { ok: true }; },
  stray_exit: (input) => new Promise(() => { setTimeout(() => process.exit(input.n), 5); }),
  stray_throw: () => new Promise(() => { setTimeout(() => { throw new Error("boom from a timer"); }, 5); }),
  abort: () => { process.abort(); return { ok: true }; },
  kill_self: () => { process.kill(process.pid, "SIGTERM"); return { ok: true }; },
  exit_code: (input) => { process.exitCode = input.n; return { ok: true }; },
`;

/** A program that calls `name` inside try/catch, printing around it. */
const app = (name: string) => `schema Ok { ok: bool }
tool ${name}(n: int) -> Ok {}
print("before")
try { tool ${name}({ n: 3 }) } catch e { print("caught", e.code, e.message) }
print("after")
`;

const noPolicy = (name: string) => project({ "tools.ts": `export const lumaTools = {${HANDLERS}};\n`, "app.luma": app(name) });

describe("issue #10.4: process.exit inside a handler is a tool failure naming the tool", () => {
  test("synchronous process.exit(3): TOOL_HANDLER_ERROR the program can catch; the run goes on, exit 0", () => {
    const r = runLuma(["app.luma", "--tool-module", "tools.ts"], { cwd: noPolicy("sync_exit") });
    expect(r).toEqual({
      exitCode: 0,
      stdout: "before\ncaught TOOL_HANDLER_ERROR Tool 'sync_exit' called process.exit(3): a tool handler cannot end the run.\nafter\n",
      stderr: "",
    });
  });

  test("process.exit(3) after an await in an async handler: the same tool failure", () => {
    const r = runLuma(["app.luma", "--tool-module", "tools.ts"], { cwd: noPolicy("async_exit") });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("caught TOOL_HANDLER_ERROR Tool 'async_exit' called process.exit(3): a tool handler cannot end the run.\nafter\n");
  });

  test("process.abort() and process.kill(process.pid, …) are refused the same way", () => {
    const a = runLuma(["app.luma", "--tool-module", "tools.ts"], { cwd: noPolicy("abort") });
    expect(a.stdout).toContain("caught TOOL_HANDLER_ERROR Tool 'abort' called process.abort(): a tool handler cannot end the run.\nafter\n");
    const k = runLuma(["app.luma", "--tool-module", "tools.ts"], { cwd: noPolicy("kill_self") });
    expect(k.exitCode).toBe(0);
    expect(k.stdout).toMatch(/caught TOOL_HANDLER_ERROR Tool 'kill_self' called process\.kill\(\d+, "SIGTERM"\): a tool handler cannot end the run\.\nafter\n$/);
  });

  test("uncaught, it ends the program with exit 1 and `Error: [TOOL_HANDLER_ERROR] Tool 'sync_exit' called …`", () => {
    const dir = project({
      "tools.ts": `export const lumaTools = {${HANDLERS}};\n`,
      "app.luma": 'schema Ok { ok: bool }\ntool sync_exit(n: int) -> Ok {}\ntool sync_exit({ n: 0 })\nprint("never")\n',
    });
    const r = runLuma(["app.luma", "--tool-module", "tools.ts"], { cwd: dir });
    expect(r).toEqual({
      exitCode: 1,
      stdout: "",
      stderr:
        "Error: [TOOL_HANDLER_ERROR] Tool 'sync_exit' called process.exit(0): a tool handler cannot end the run.\n" +
        "  --> app.luma:3:1\n  3 | tool sync_exit({ n: 0 })\n    | ^^^^^^^^^^^^^^^^^^^^^^^^\n",
    });
  });

  test("a module calling process.exit(5) while it loads is refused at start-up (exit 2), naming the module", () => {
    const dir = project({ "top.ts": "process.exit(5);\nexport const lumaTools = {};\n", "app.luma": 'print("never")\n' });
    const r = runLuma(["app.luma", "--tool-module", "top.ts"], { cwd: dir });
    expect(r).toEqual({
      exitCode: 2,
      stdout: "",
      stderr: "Error: Tool module 'top.ts' could not be loaded: it threw while loading: process.exit(5) was called\n  = code E0501 (luma explain E0501)\n",
    });
  });

  test("process.exitCode set by a handler does not change the run's exit code", () => {
    const r = runLuma(["app.luma", "--tool-module", "tools.ts"], { cwd: noPolicy("exit_code") });
    expect(r).toEqual({ exitCode: 0, stdout: "before\nafter\n", stderr: "" });
  });
});

describe("issue #10.4: an exit or throw outside any awaited call ends the run, naming the tool in flight", () => {
  test("process.exit(3) from a handler's timer: exit 1, the catch block does not run, the trace has the call", () => {
    const dir = noPolicy("stray_exit");
    const r = runLuma(["app.luma", "--tool-module", "tools.ts", "--trace", "trace.jsonl"], { cwd: dir });
    expect(r).toEqual({
      exitCode: 1,
      stdout: "before\n",
      stderr:
        "Error: [TOOL_HANDLER_ERROR] A tool module called process.exit(3) outside a tool call (while tool 'stray_exit' was running): a tool handler cannot end the run.\n",
    });
    const events = readFileSync(join(dir, "trace.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: "tool.call", tool: "stray_exit", outcome: "error", code: "TOOL_HANDLER_ERROR" });
  });

  test("an error thrown from a handler's timer: exit 1, one line naming the tool, no stack", () => {
    const r = runLuma(["app.luma", "--tool-module", "tools.ts"], { cwd: noPolicy("stray_throw") });
    expect(r).toEqual({
      exitCode: 1,
      stdout: "before\n",
      stderr: "Error: [TOOL_HANDLER_ERROR] A tool module threw outside a tool call (while tool 'stray_throw' was running): boom from a timer\n",
    });
  });

  // The stop aborts the call's AbortSignal; a handler that settles on it gives its claim back
  // (a handler that never settles keeps the key claimed until the lease passes: its outcome is
  // unknown, the same rule as a timeout — see tests/pipeline/timed-out-claims.test.ts).
  test("the idempotency claim of the stopped call is released once its handler settles: a rerun with the same key runs the handler", () => {
    const dir = project({
      "tools.ts": `export const lumaTools = {
  charge: (input, signal) => process.env.EXIT_IN_TIMER === "1"
    ? new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(new Error("stopped")));
        setTimeout(() => process.exit(9), 5);
      })
    : { charged: input.id },
};
`,
      "luma.config.json": JSON.stringify({ tool_modules: ["./tools.ts"], idempotency_store: { backend: "sqlite", path: "claims.sqlite" } }),
      "app.luma": `schema Charge { charged: string }
tool charge(id: string) -> Charge {
  side_effects: "write"
  idempotent: true
  idempotency_key: id
  timeout: 60000
}
print(tool charge({ id: "req-1" }).charged)
`,
    });
    const first = runLuma(["app.luma"], { cwd: dir, env: { EXIT_IN_TIMER: "1" } });
    expect(first.exitCode).toBe(1);
    expect(first.stderr).toContain("A tool module called process.exit(9) outside a tool call (while tool 'charge' was running)");
    const rerun = runLuma(["app.luma"], { cwd: dir });
    expect(rerun).toEqual({ exitCode: 0, stdout: "req-1\n", stderr: "" });
  });
});

describe("issue #10.4: under the strict policy", () => {
  test("a CommonJS module in the VM context reaching the host process through Function: a tool failure", () => {
    const dir = project({
      "tools.cjs": `const host = Bun.spawnSync.constructor("return pro" + "cess")();
module.exports = { sync_exit: (input) => { host.exit(input.n); return { ok: true }; } };
`,
      "luma.config.json": JSON.stringify({ tool_modules: ["./tools.cjs"], tool_module_policy: { sandbox: "strict" } }),
      "app.luma": app("sync_exit"),
    });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r).toEqual({
      exitCode: 0,
      stdout: "before\ncaught TOOL_HANDLER_ERROR Tool 'sync_exit' called process.exit(3): a tool handler cannot end the run.\nafter\n",
      stderr: "",
    });
  });

  test("an ES module with the real globals (allow_env): sync, async and timer exits", () => {
    for (const [name, expected] of [
      ["sync_exit", "caught TOOL_HANDLER_ERROR Tool 'sync_exit' called process.exit(3)"],
      ["async_exit", "caught TOOL_HANDLER_ERROR Tool 'async_exit' called process.exit(3)"],
    ] as const) {
      const dir = project({
        "tools.mjs": `export const lumaTools = {${HANDLERS}};\n`,
        "luma.config.json": JSON.stringify({ tool_modules: ["./tools.mjs"], tool_module_policy: { sandbox: "strict", allow_env: true } }),
        "app.luma": app(name),
      });
      const r = runLuma(["app.luma"], { cwd: dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(expected);
    }
    const dir = project({
      "tools.mjs": `export const lumaTools = {${HANDLERS}};\n`,
      "luma.config.json": JSON.stringify({ tool_modules: ["./tools.mjs"], tool_module_policy: { sandbox: "strict", allow_env: true } }),
      "app.luma": app("stray_exit"),
    });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("A tool module called process.exit(3) outside a tool call (while tool 'stray_exit' was running)");
  });
});
