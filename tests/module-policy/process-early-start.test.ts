/**
 * Issue #30 item 1: a `"process"` module's child starts before the program is parsed and
 * checked (early-start.ts), idle — nothing of the module runs before its load — and the load
 * claims it. A child nobody claims is stopped: after a check error, after a start-up failure,
 * when the config the load sees differs. No child outlives the run.
 */
import { describe, expect } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "../../src/syntax/parse";
import { loadToolRegistry } from "../../src/runtime/tools/registry/load-tool-registry";
import { createToolInvoker } from "../../src/runtime/tools/pipeline";
import { createSchemaTable } from "../../src/schema/schema-table";
import { startChildrenEarly } from "../../src/runtime/tools/process-host/start-children-early";
import { stopUnclaimed, unclaimedPids } from "../../src/runtime/tools/process-host/early-start";
import { runLuma } from "../support/luma-binary";
import { it, projectDir, RUN_ENV } from "./process-project";

const SOURCE = `schema Sum { total: int }
tool add(a: int, b: int) -> Sum { side_effects: "read" }
print(tool add({ a: 1, b: 2 }).total)
`;
const ADD = "module.exports = { add: ({ a, b }) => ({ total: a + b }) };\n";
const config = (extra: object = {}) => JSON.stringify({ tool_modules: ["./tools.cjs"], tool_module_policy: { sandbox: "process", ...extra } });

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));

/** Processes whose command line names `dir` (the sandbox's bwrap binds the module's files by path). */
function processesNaming(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmdline.includes(dir) && alive(Number(pid))) found.push(`${pid}: ${cmdline.replaceAll("\0", " ").slice(0, 120)}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The children naming `dir`, once one shows: a child forked but not yet exec'd still shows its parent's command line. */
async function someAppear(dir: string): Promise<string[]> {
  for (let i = 0; i < 100 && processesNaming(dir).length === 0; i++) await Bun.sleep(20);
  return processesNaming(dir);
}

async function noneLeft(dir: string): Promise<string[]> {
  for (let i = 0; i < 40 && processesNaming(dir).length > 0; i++) await Bun.sleep(50);
  return processesNaming(dir);
}

async function load(dir: string, env: Record<string, string | undefined> = {}) {
  const program = parse(SOURCE, join(dir, "app.luma")).program!;
  const cfg = JSON.parse(readFileSync(join(dir, "luma.config.json"), "utf8"));
  const loaded = { config: { tool_contexts: {}, ...cfg, tool_modules: [{ path: "./tools.cjs" }] }, projectDir: dir, path: join(dir, "luma.config.json") };
  const registry = await loadToolRegistry({ program, config: loaded, cliModules: [], cwd: dir, env });
  const invoker = createToolInvoker({ program, schemas: createSchemaTable(program), registry, config: loaded.config, env, warn: () => {}, trace: () => {} });
  return { registry, invoker };
}

describe("issue #30: the child starts while the program is parsed and checked", () => {
  it("the early child is the one the load claims: it stays alive and answers the calls", async () => {
    const dir = projectDir("luma-early-", { "tools.cjs": ADD, "app.luma": SOURCE, "luma.config.json": config() });
    await startChildrenEarly({ file: join(dir, "app.luma"), cwd: dir, toolModules: [], env: {} });
    const [early, ...more] = unclaimedPids();
    expect(more).toEqual([]);
    expect(alive(early)).toBe(true);
    const { registry, invoker } = await load(dir);
    expect(unclaimedPids()).toEqual([]);
    expect(alive(early)).toBe(true); // claimed, not stopped
    expect(await invoker.call({ tool: "add", input: { a: 2, b: 3 }, mode: "direct" })).toEqual({ total: 5 });
    await registry.close?.();
    expect(await noneLeft(dir)).toEqual([]);
  });

  it("a child started for another environment than the load's is not claimed: it is stopped, a fresh one serves", async () => {
    const dir = projectDir("luma-early-", { "tools.cjs": ADD, "app.luma": SOURCE, "luma.config.json": config({ allow_env: ["GREETING"] }) });
    await startChildrenEarly({ file: join(dir, "app.luma"), cwd: dir, toolModules: [], env: { GREETING: "hello" } });
    const [early] = unclaimedPids();
    const { registry, invoker } = await load(dir, { GREETING: "changed" });
    expect(await invoker.call({ tool: "add", input: { a: 1, b: 1 }, mode: "direct" })).toEqual({ total: 2 });
    for (let i = 0; i < 40 && alive(early); i++) await Bun.sleep(50);
    expect(alive(early)).toBe(false);
    await registry.close?.();
  });

  it("no child is started early for a module strict's checks refuse, nor under another tier", async () => {
    const refused = projectDir("luma-early-", { "tools.cjs": `require("child_process");\n${ADD}`, "app.luma": SOURCE, "luma.config.json": config() });
    await startChildrenEarly({ file: join(refused, "app.luma"), cwd: refused, toolModules: [], env: {} });
    expect(unclaimedPids()).toEqual([]);
    const strict = projectDir("luma-early-", { "tools.cjs": ADD, "app.luma": SOURCE, "luma.config.json": JSON.stringify({ tool_modules: ["./tools.cjs"], tool_module_policy: { sandbox: "strict" } }) });
    await startChildrenEarly({ file: join(strict, "app.luma"), cwd: strict, toolModules: [], env: {} });
    expect(unclaimedPids()).toEqual([]);
  });

  it("stopUnclaimed stops every waiting child, also one still starting", async () => {
    const dir = projectDir("luma-early-", { "tools.cjs": ADD, "app.luma": SOURCE, "luma.config.json": config() });
    await startChildrenEarly({ file: join(dir, "app.luma"), cwd: dir, toolModules: [], env: {} });
    expect((await someAppear(dir)).length).toBeGreaterThan(0);
    stopUnclaimed();
    expect(await noneLeft(dir)).toEqual([]);
  });
});

describe("issue #30 through dist/luma: errors in the same order, no child left behind", () => {
  it("a check error is reported as before (exit 2) and no child outlives the run", async () => {
    const dir = projectDir("luma-early-", { "tools.cjs": ADD, "app.luma": `${SOURCE}print(no_such_name)\n`, "luma.config.json": config() });
    const r = runLuma(["app.luma"], { cwd: dir, env: RUN_ENV });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/app\.luma:4:\d+/);
    expect(r.stdout).toBe("");
    expect(await noneLeft(dir)).toEqual([]);
  });

  it("a start-up failure after the early start (a second module missing) stops the started child", async () => {
    const dir = projectDir("luma-early-", {
      "tools.cjs": ADD,
      "app.luma": SOURCE,
      "luma.config.json": JSON.stringify({ tool_modules: ["./tools.cjs", "./missing.cjs"], tool_module_policy: { sandbox: "process" } }),
    });
    const r = runLuma(["app.luma"], { cwd: dir, env: RUN_ENV });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("missing.cjs");
    expect(await noneLeft(dir)).toEqual([]);
  });

  it("a run with the early child prints its result and leaves nothing behind", async () => {
    const dir = projectDir("luma-early-", { "tools.cjs": ADD, "app.luma": SOURCE, "luma.config.json": config() });
    const r = runLuma(["app.luma"], { cwd: dir, env: RUN_ENV });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("3\n");
    expect(await noneLeft(dir)).toEqual([]);
  });
});
