/**
 * `luma init [DIR]` through the real binary: the scaffold runs and tests offline at once
 * (no key, no network: a bare environment), its tools.ts type-checks against the types
 * `--generate-tool-types` writes, and init never overwrites anything.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";

const base = mkdtempSync(join(tmpdir(), "luma-init-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const offline = { OPENAI_API_KEY: undefined, LUMA_NO_CACHE: "1" };

describe("luma init: a project that runs and tests offline", () => {
  const dir = join(base, "x");

  test("`luma init x && cd x && luma main.luma && luma test` works with no key", () => {
    const init = runLuma(["init", "x"], { cwd: base });
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain("created x: main.luma, main.test.luma, tools.ts, tools.generated.d.ts, luma.d.ts, luma.config.json, cassettes/main.jsonl, tsconfig.json, .gitignore, README.md");
    for (const f of ["main.luma", "main.test.luma", "tools.ts", "luma.d.ts", "luma.config.json", "cassettes/main.jsonl", "tsconfig.json", ".gitignore", "README.md"]) {
      expect(existsSync(join(dir, f))).toBe(true);
    }
    const run = runLuma(["main.luma"], { cwd: dir, env: offline });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("Lisbon: wear light clothes and sunglasses; umbrella: false\n");
    expect(run.exitCode).toBe(0);
    const tested = runLuma(["test"], { cwd: dir, env: offline });
    expect(tested.stdout).toContain("4 passed, 0 failed");
    expect(tested.exitCode).toBe(0);
    // The README names the three commands.
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    for (const c of ["luma main.luma", "luma test", "luma main.luma --generate-tool-types tools.generated.d.ts"]) expect(readme).toContain(c);
  });

  test("the regenerated tool types type-check tools.ts with tsc", () => {
    const gen = runLuma(["main.luma", "--generate-tool-types", "tools.generated.d.ts"], { cwd: dir });
    expect(gen.exitCode).toBe(0);
    const tsc = Bun.spawnSync(["bun", join(REPO, "node_modules/typescript/bin/tsc"), "-p", "."], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe("");
    expect(tsc.exitCode).toBe(0);
    // And tsc does catch a handler that no longer fits (a renamed field).
    writeFileSync(join(dir, "tools.ts"), readFileSync(join(dir, "tools.ts"), "utf8").replace("return { city, ...today }", "return { town: city, ...today }"));
    const bad = Bun.spawnSync(["bun", join(REPO, "node_modules/typescript/bin/tsc"), "-p", "."], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout.toString()).toContain("tools.ts");
  }, 120_000);
});

describe('luma init: the scaffold passes tsc --strict as written (issue #24: no types for "luma" was TS2307)', () => {
  test('tools.ts imports LumaToolError from "luma", and the project type-checks with no manual step', () => {
    const dir = join(base, "typed");
    expect(runLuma(["init", "typed"], { cwd: base }).exitCode).toBe(0);
    expect(readFileSync(join(dir, "tools.ts"), "utf8")).toContain('import { LumaToolError } from "luma";');
    // Everything a tool module may take from "luma", used the way a handler would.
    writeFileSync(
      join(dir, "more-tools.ts"),
      `import { isLumaToolError, LumaToolError, type DatasourceBridge, type HandlerContext, type LumaToolErrorInit, type ToolHandler } from "luma";
const init: LumaToolErrorInit = { code: "DB_TIMEOUT", message: "Database timed out", retryable: true, details: { ms: 500 } };
export const handler: ToolHandler = async (input: { id: string }, signal?: AbortSignal, _needs?: Record<string, unknown>, ctx?: HandlerContext) => {
  if (signal?.aborted) throw new LumaToolError(init);
  return { id: input.id, key: ctx?.idempotencyKey ?? "", attempt: ctx?.attempt ?? 1 };
};
export const bridge: DatasourceBridge = async (sql, params) => [{ sql, n: params.length }];
export const retryable = (e: unknown): boolean => isLumaToolError(e) && e.retryable && e.code.length > 0;
`,
    );
    const tsc = Bun.spawnSync([join(REPO, "node_modules/.bin/tsc"), "-p", ".", "--strict", "--noEmit"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe("");
    expect(tsc.exitCode).toBe(0);
    // The import is real at run time too: the scaffold still runs and tests offline.
    expect(runLuma(["main.luma"], { cwd: dir, env: offline }).stdout).toBe("Lisbon: wear light clothes and sunglasses; umbrella: false\n");
  }, 240_000);
});

describe("luma init: never overwrites", () => {
  test("a non-empty directory is refused and left untouched (exit 2, E0650)", () => {
    const dir = join(base, "busy");
    mkdirSync(dir);
    writeFileSync(join(dir, "main.luma"), "print(1)\n");
    const r = runLuma(["init", "busy"], { cwd: base });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("luma init: busy is not empty; nothing was written");
    expect(r.stderr).toContain("E0650");
    expect(readFileSync(join(dir, "main.luma"), "utf8")).toBe("print(1)\n");
    expect(existsSync(join(dir, "tools.ts"))).toBe(false);
  });

  test("init in the current (empty) directory works; a second init there is refused", () => {
    const dir = join(base, "here");
    mkdirSync(dir);
    expect(runLuma(["init"], { cwd: dir }).exitCode).toBe(0);
    expect(existsSync(join(dir, "main.luma"))).toBe(true);
    const again = runLuma(["init"], { cwd: dir });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain("is not empty");
  });
});
