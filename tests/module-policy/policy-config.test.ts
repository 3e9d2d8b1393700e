import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config";
import { policyNotices, resolveModulePolicy } from "../../src/runtime/module-policy";
import { startupFailure } from "../registry/startup-error-helpers";
import { project } from "./strict-project";

async function configWith(block: unknown) {
  const dir = project({});
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_module_policy: block }));
  return loadConfig({ programDir: dir });
}

describe("§10 Strict policy — the tool_module_policy block is validated", () => {
  const bad: [block: unknown, message: string][] = [
    [{ sandbox: "loose" }, `'tool_module_policy.sandbox' must be one of "none", "strict", "process" (got "loose")`],
    [{ allow_builtins: "fs" }, `'tool_module_policy.allow_builtins' must be a list (got "fs")`],
    [{ allow_builtins: [1] }, `'tool_module_policy.allow_builtins[0]' must be a non-empty string (got 1)`],
    [{ allow_env: "no" }, `'tool_module_policy.allow_env' must be true, false or a list (got "no")`],
    [{ allow_network: 1 }, `'tool_module_policy.allow_network' must be true or false (got 1)`],
    [{ max_memory_mb: 15 }, `'tool_module_policy.max_memory_mb' must be an integer >= 16 (got 15)`],
    [{ max_memory_mb: 64.5 }, `'tool_module_policy.max_memory_mb' must be an integer >= 16 (got 64.5)`],
    [{ max_concurrency: 0 }, `'tool_module_policy.max_concurrency' must be an integer >= 1 (got 0)`],
    [{ sandbox: "strict", memory: 1 }, `unknown key 'tool_module_policy.memory'`],
    [{ allow_env: ["1BAD"] }, `'tool_module_policy.allow_env[0]' must be an environment variable name (got "1BAD")`],
    [{ allow_paths: [{ write: true }] }, `'tool_module_policy.allow_paths[0].path' is required`],
    [{ allow_spawn: "yes" }, `'tool_module_policy.allow_spawn' must be true or false (got "yes")`],
    [{ kill_grace_ms: -1 }, `'tool_module_policy.kill_grace_ms' must be an integer >= 0 (got -1)`],
  ];
  for (const [block, message] of bad) {
    test(`refused: ${JSON.stringify(block)}`, async () => {
      const error = await startupFailure(() => configWith(block));
      expect(error.message).toBe(`luma.config.json: ${message}`);
    });
  }

  test("the smallest valid limits are accepted: max_memory_mb 16, max_concurrency 1", async () => {
    const loaded = await configWith({ sandbox: "strict", max_memory_mb: 16, max_concurrency: 1 });
    expect(loaded.config.tool_module_policy).toEqual({ sandbox: "strict", max_memory_mb: 16, max_concurrency: 1 });
  });
});

describe("§10 Strict policy — defaults hold inside a block only", () => {
  test("no block: no policy at all (no sandbox, no semaphore)", async () => {
    const dir = project({});
    expect(resolveModulePolicy(await loadConfig({ programDir: dir }))).toBeUndefined();
  });

  test("an empty block: sandbox none, allow_* false, no builtins, max_concurrency 1", async () => {
    const policy = resolveModulePolicy(await configWith({}))!;
    expect(policy).toMatchObject({ strict: false, allowEnv: false, allowNetwork: false, maxConcurrency: 1, maxMemoryMb: undefined });
    expect([...policy.allowBuiltins]).toEqual([]);
  });

  test("allow_builtins is one list for `crypto` and `node:crypto`", async () => {
    const policy = resolveModulePolicy(await configWith({ sandbox: "strict", allow_builtins: ["node:crypto", "path", "bun:sqlite"] }))!;
    expect([...policy.allowBuiltins]).toEqual(["crypto", "path", "bun:sqlite"]);
  });

  test("the project directory is the directory holding luma.config.json", async () => {
    const loaded = await configWith({ sandbox: "strict" });
    expect(resolveModulePolicy(loaded)!.projectDir).toBe(loaded.projectDir);
  });
});

describe("§10 Strict policy — max_memory_mb: accepted, recorded, not enforced (one-line notice)", () => {
  test("max_memory_mb is recorded and a one-line notice says it is not enforced", async () => {
    const loaded = await configWith({ sandbox: "strict", max_memory_mb: 256 });
    const policy = resolveModulePolicy(loaded)!;
    expect(policy.maxMemoryMb).toBe(256);
    expect(policyNotices(policy, loaded.config.tool_module_policy!)).toEqual([
      "notice: luma.config.json: tool_module_policy.max_memory_mb (256) is recorded but not enforced: tool modules run inside the luma process.",
    ]);
  });

  test("no max_memory_mb, strict: no notice", async () => {
    const loaded = await configWith({ sandbox: "strict", allow_env: true });
    expect(policyNotices(resolveModulePolicy(loaded)!, loaded.config.tool_module_policy!)).toEqual([]);
  });

  test("strict-only keys under sandbox none are said to do nothing", async () => {
    const loaded = await configWith({ allow_network: false, allow_builtins: [] });
    expect(policyNotices(resolveModulePolicy(loaded)!, loaded.config.tool_module_policy!)).toEqual([
      'notice: luma.config.json: tool_module_policy.allow_builtins, allow_network have no effect without "sandbox": "strict".',
    ]);
  });
});
