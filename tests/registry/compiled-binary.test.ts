/**
 * The loader inside the standalone binary: `bun build --compile`, run from a temp dir outside
 * the repository with no node_modules anywhere above it, loading TS, CommonJS and ESM tool
 * modules that import "luma" (and the legacy `src/tool-registry` path).
 */
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const REPO = join(import.meta.dir, "../..");
const MODULES = ["ts-module.ts", "mts-module.mts", "cjs/js-module.js", "cjs-module.cjs", "mjs-module.mjs", "esm/js-module.js", "ts-commonjs.ts"];

const hasNodeModulesAbove = (dir: string): boolean => {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, "node_modules"))) return true;
    if (dirname(d) === d) return false;
  }
};

describe("§9/§10 tool modules import LumaToolError from \"luma\" in the compiled binary", () => {
  test("a compiled entry loads TS, CommonJS and ESM modules from outside the repo with no node_modules", async () => {
    const work = mkdtempSync(join(tmpdir(), "luma-compiled-"));
    const modules = join(work, "modules");
    cpSync(join(import.meta.dir, "fixtures/luma-imports"), modules, { recursive: true });
    expect(hasNodeModulesAbove(modules)).toBe(false);

    const binary = join(work, "probe");
    const build = Bun.spawnSync([process.execPath, "build", "--compile", join(import.meta.dir, "compiled/probe-entry.ts"), "--outfile", binary], { cwd: REPO });
    expect(build.exitCode).toBe(0);

    const run = Bun.spawnSync([binary, ...MODULES], { cwd: modules, env: { PATH: "/usr/bin:/bin" } });
    const lines = run.stdout.toString().trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((l) => l.failed)).toEqual(MODULES.map(() => undefined));
    expect(lines.map((l) => l.kind)).toEqual(["ts", "mts", "js-commonjs", "cjs", "mjs", "js-esm", "ts-commonjs"]);
    for (const line of lines) {
      expect(line).toMatchObject({ legacySame: true, isLumaToolError: true, isLumaError: true, code: "E_PROBE", phase: "runtime" });
    }
  }, 60_000);
});
