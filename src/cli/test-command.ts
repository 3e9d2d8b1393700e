/**
 * `luma test [PATH…]`: finds the test files (a directory: every `*.test.luma` under it,
 * `node_modules` and dot-folders skipped; a file: that file), runs their tests
 * (runtime/testing/run-tests.ts) and prints one line per test, the failure's text indented
 * under a failing one, then the summary `N passed, N failed`. Exit 1 when a test failed,
 * a file did not load, or nothing ran (a CI job that tests nothing is misconfigured).
 */
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { TestCommand } from "./dev-loop-argv";
import { EXIT, reportError } from "./report-error";
import { junitXml, type JunitCase } from "./junit-report";
import { startupError } from "../diagnostics/luma-error";
import { openMcpTools } from "../mcp/open-mcp-tools";

export interface TestHost {
  cwd: string;
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  sources: Map<string, string>;
  color: boolean;
}

const SKIPPED_DIRS = new Set(["node_modules"]);

/** The files under `path` whose name ends in `suffix` (a file: itself); `luma eval` finds its files so too. */
export function lumaFilesUnder(path: string, suffix: string): string[] {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw startupError(`cannot read ${path}: no such file or directory`, { catalogCode: "E0610" });
  }
  if (!isDir) return [path];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".") || SKIPPED_DIRS.has(entry.name)) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(suffix)) found.push(full);
    }
  };
  walk(path);
  return found;
}

export async function runTestCommand(cmd: TestCommand, host: TestHost): Promise<number> {
  const files = [...new Set(cmd.paths.flatMap((p) => lumaFilesUnder(p, ".test.luma")))];
  const { loadTestProgram } = await import("../load/load-test-program");
  const { runTests } = await import("../runtime/testing/run-tests");
  const sourceOf = (f: string) => host.sources.get(f);
  const render = (e: unknown, color: boolean) => reportError(e, { color, sourceOf, debug: host.env.LUMA_DEBUG === "1" }).text;
  const indent = (text: string) => text.split("\n").map((l) => `    ${l}`).join("\n");
  const cases: JunitCase[] = [];
  let passed = 0;
  let failed = 0;
  const fail = (file: string, name: string, error: unknown, output: readonly string[], durationMs: number) => {
    failed++;
    host.out(`FAIL ${file} › ${name}`);
    host.out(indent(render(error, host.color)));
    if (output.length > 0) host.out(indent(["output:", ...output.map((l) => `  ${l}`)].join("\n")));
    cases.push({ file, name, durationMs, failure: render(error, false) });
  };
  for (const file of files) {
    let loaded;
    try {
      loaded = await loadTestProgram(file, host.sources);
    } catch (e) {
      fail(file, "(the file does not load)", e, [], 0);
      continue;
    }
    await runTests(loaded.program, {
      file,
      cwd: host.cwd,
      env: host.env,
      sourceOf,
      toolModules: cmd.toolModules,
      configPath: cmd.config,
      filter: cmd.filter,
      timeoutMs: cmd.timeoutMs,
      openRemoteTools: openMcpTools,
      onResult(r) {
        if (!r.passed) return fail(file, r.name, r.error, r.output, r.durationMs);
        passed++;
        host.out(`pass ${file} › ${r.name}`);
        cases.push({ file, name: r.name, durationMs: r.durationMs });
      },
    });
  }
  const nothing = passed + failed === 0;
  host.out(`${passed} passed, ${failed} failed${nothing ? ` (no test found${cmd.filter === undefined ? "" : ` matching --filter ${JSON.stringify(cmd.filter)}`})` : ""}`);
  if (cmd.junit !== undefined) {
    try {
      writeFileSync(resolve(host.cwd, cmd.junit), junitXml(cases));
    } catch (e) {
      throw startupError(`cannot write ${cmd.junit}: ${(e as Error).message}`, { catalogCode: "E0652" });
    }
  }
  return failed > 0 || nothing ? EXIT.runtime : EXIT.ok;
}
