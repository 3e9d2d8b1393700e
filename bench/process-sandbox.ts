/**
 * Issue #30 figures: `"sandbox": "process"` against the in-process tier (`"strict"`) for the
 * same tool module — the per-call time through the whole pipeline (median of single calls,
 * rounds interleaved so load hits both alike), and a module's cold start (start-up's load:
 * bwrap + the child runtime + loading the module, median of several). Goals: ≤ 100 µs
 * per-call overhead at the median, ≤ 50 ms cold start.
 *
 * Run from source, the child is `bun src/cli/main.ts` (the repository bound read-only into
 * the sandbox); from `dist/luma` it is the binary itself, which starts faster.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "../src/syntax/parse";
import { createSchemaTable } from "../src/schema/schema-table";
import { createToolInvoker } from "../src/runtime/tools/pipeline";
import { loadToolRegistry } from "../src/runtime/tools/registry/load-tool-registry";
import { childEnv, findMechanism, sandboxArgv } from "../src/runtime/tools/process-host/sandbox-command";
import { ModuleChild } from "../src/runtime/tools/process-host/module-child";
import { startEarlyChild } from "../src/runtime/tools/process-host/early-start";
import { resolveModulePolicy } from "../src/runtime/module-policy/module-policy";
import { median, fmt, timeInterleaved } from "./measure";
import { ensureBinary } from "../tests/support/luma-binary";

const SOURCE = `
schema Sum { total: int }
tool add(a: int, b: int) -> Sum { side_effects: "read" }
`;
const CALLS = 2_000;
const ROUNDS = 5;
const COLD_STARTS = 7;

async function registryFor(sandbox: "strict" | "process", dir: string) {
  const program = parse(SOURCE, join(dir, "app.luma")).program!;
  const config = { tool_modules: [{ path: "./tools.cjs" }], tool_contexts: {}, tool_module_policy: { sandbox } };
  const t0 = performance.now();
  const registry = await loadToolRegistry({ program, config: { config, projectDir: dir, path: join(dir, "luma.config.json") }, cliModules: [], cwd: dir, env: {} });
  const loadMs = performance.now() - t0;
  const invoker = createToolInvoker({ program, schemas: createSchemaTable(program), registry, config, env: {}, warn: () => {}, trace: () => {} });
  return { registry, invoker, loadMs };
}

export async function benchProcessSandbox(): Promise<void> {
  const found = findMechanism();
  if (typeof found === "string") {
    console.log(`process sandbox: skipped (${found})\n`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-process-"));
  writeFileSync(join(dir, "tools.cjs"), "module.exports = { add: ({ a, b }) => ({ total: a + b }) };\n");
  const strict = await registryFor("strict", dir);
  const hosted = await registryFor("process", dir);
  const input = { a: 2, b: 3 };
  const perCall = [strict, hosted].map(() => [] as number[]);
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [i, side] of [strict, hosted].entries()) {
      for (let n = 0; n < CALLS; n++) {
        const t = Bun.nanoseconds();
        await side.invoker.call({ tool: "add", input, mode: "direct" });
        if (round > 0) perCall[i].push((Bun.nanoseconds() - t) / 1000); // round 0 warms up
      }
    }
  }
  const [inProcess, child] = perCall.map(median);
  await strict.registry.close?.();
  await hosted.registry.close?.();

  const cold: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const again = await registryFor("process", dir);
    cold.push(again.loadMs);
    await again.registry.close?.();
  }
  // The same through dist/luma: a whole run with one call, strict against process; the difference is the child's cold start.
  const binDir = (sandbox: string) => {
    const d = mkdtempSync(join(tmpdir(), `luma-bench-${sandbox}-`));
    writeFileSync(join(d, "tools.cjs"), "module.exports = { add: ({ a, b }) => ({ total: a + b }) };\n");
    writeFileSync(join(d, "app.luma"), `${SOURCE}\nprint(tool add({ a: 1, b: 2 }).total)\n`);
    writeFileSync(join(d, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.cjs"], tool_module_policy: { sandbox } }));
    return join(d, "app.luma");
  };
  const bin = ensureBinary();
  // Where the cold start goes: the dist/luma child from spawn to "loaded", in its sandbox and
  // without one (the runtime and the module's load alone), interleaved.
  const config = { tool_modules: [], tool_contexts: {}, tool_module_policy: { sandbox: "process" as const } };
  const policy = resolveModulePolicy({ config, projectDir: dir, path: join(dir, "luma.config.json") })!;
  const load = { t: "load" as const, shownPath: "./tools.cjs", policy: { allowBuiltins: [], allowEnv: false, allowNetwork: false, allowSpawn: false, maxConcurrency: 4, projectDir: dir, configName: "luma.config.json" }, from: { kind: "file" as const, realPath: join(dir, "tools.cjs") } };
  const sandboxed = sandboxArgv({ mechanism: found, policy, view: [join(dir, "tools.cjs")], child: { argv: [bin], binds: [bin] } });
  const childStart = { sandboxed: [] as number[], bare: [] as number[], bwrapAlone: [] as number[], runtimeAlone: [] as number[], afterEarly: [] as number[] };
  // The parts: bwrap with the same mounts starting a program that does nothing, and the runtime starting and exiting.
  const TRUE = "/usr/bin/true";
  const bwrapTrue = sandboxArgv({ mechanism: found, policy, view: [join(dir, "tools.cjs")], child: { argv: [TRUE], binds: [TRUE] } });
  const timed = (argv: string[]) => {
    const t = performance.now();
    Bun.spawnSync(argv, { env: {}, stdout: "ignore", stderr: "ignore" });
    return performance.now() - t;
  };
  for (let i = 0; i < COLD_STARTS * 2; i++) {
    childStart.bwrapAlone.push(timed(bwrapTrue));
    childStart.runtimeAlone.push(timed([bin, "--version"]));
    for (const [side, argv] of [["sandboxed", sandboxed], ["bare", [bin] as string[]]] as const) {
      const child = new ModuleChild({ shownPath: "./tools.cjs", argv: () => argv, env: childEnv({}), load, killGraceMs: 1000 });
      const t = performance.now();
      await child.start();
      childStart[side].push(performance.now() - t);
      child.close();
    }
  }
  // Started early (early-start.ts): the child spawned while luma parses and checks (30 ms
  // here, standing in for that), then claimed by its load: what is left on the run's path.
  for (let i = 0; i < COLD_STARTS * 2; i++) {
    startEarlyChild(sandboxed, childEnv({}));
    await Bun.sleep(30);
    const child = new ModuleChild({ shownPath: "./tools.cjs", argv: () => sandboxed, env: childEnv({}), load, killGraceMs: 1000 });
    const t = performance.now();
    await child.start();
    childStart.afterEarly.push(performance.now() - t);
    child.close();
  }
  const [strictRun, processRun] = timeInterleaved([[bin, binDir("strict")], [bin, binDir("process")]], COLD_STARTS, { PATH: process.env.PATH, LUMA_NO_CACHE: "1" });
  console.log("process sandbox (issue #30): per-call time through the pipeline, median of %d × %d calls", ROUNDS, CALLS);
  console.log(`  "strict" (in-process)                       ${fmt(inProcess).padStart(7)} µs`);
  console.log(`  "process" (child over pipes)                ${fmt(child).padStart(7)} µs  overhead +${fmt(child - inProcess)} µs (goal ≤ 100)`);
  console.log(`  cold start of a module (bwrap + child + load) ${fmt(median(cold)).padStart(5)} ms  median of ${COLD_STARTS} (goal ≤ 50; from source)`);
  console.log(`  dist/luma's child, spawn → module loaded: in its sandbox ${fmt(median(childStart.sandboxed))} ms, without one ${fmt(median(childStart.bare))} ms (median of ${COLD_STARTS * 2}; goal ≤ 50)`);
  console.log(`    its parts: bwrap starting /usr/bin/true ${fmt(median(childStart.bwrapAlone))} ms; the runtime alone (luma --version) ${fmt(median(childStart.runtimeAlone))} ms`);
  console.log(`    started early (30 ms before its load): claim → module loaded ${fmt(median(childStart.afterEarly))} ms (median of ${COLD_STARTS * 2})`);
  console.log(`  dist/luma, one call: "strict" ${fmt(strictRun)} ms, "process" ${fmt(processRun)} ms: cold start +${fmt(processRun - strictRun)} ms (goal ≤ 50)`);
  console.log("");
}

if (import.meta.main) await benchProcessSandbox();
