/**
 * Issue #12.8 through the real binary: a handler's `console.log` (and `info`, `debug`) goes
 * to stderr — a program's stdout is its output — in order with the program's own lines,
 * under no policy and inside the strict VM context. See src/runtime/run/console-to-stderr.ts.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-console-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const APP = `schema Ok { ok: bool }
tool chatty(n: int) -> Ok {}
print("out1")
tool chatty({ n: 3 })
print("out2")
`;
const HANDLER = `chatty: (input) => { console.log("debug %d", input.n, { a: 1 }); console.info("info"); console.debug("fine"); return { ok: true }; }`;

describe("issue #12.8: a handler's console.log goes to stderr", () => {
  test("no policy: stdout holds only the program's output; the debug lines are on stderr", () => {
    const dir = project({ "tools.ts": `export const lumaTools = { ${HANDLER} };\n`, "app.luma": APP });
    const r = runLuma(["app.luma", "--tool-module", "tools.ts"], { cwd: dir });
    expect(r).toEqual({ exitCode: 0, stdout: "out1\nout2\n", stderr: "debug 3 { a: 1 }\ninfo\nfine\n" });
  });

  test("merged into one pipe (2>&1) the lines keep the order they were written in", () => {
    const dir = project({ "tools.ts": `export const lumaTools = { ${HANDLER} };\n`, "app.luma": APP });
    const merged = Bun.spawnSync(["bash", "-c", `"$LUMA" app.luma --tool-module tools.ts 2>&1 | cat`], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", LUMA: ensureBinary() },
    });
    expect(merged.exitCode).toBe(0);
    expect(merged.stdout.toString()).toBe("out1\ndebug 3 { a: 1 }\ninfo\nfine\nout2\n");
  });

  test("strict: the VM context's console writes to stderr too", () => {
    const dir = project({
      "tools.cjs": `module.exports = { ${HANDLER} };\n`,
      "luma.config.json": JSON.stringify({ tool_modules: ["./tools.cjs"], tool_module_policy: { sandbox: "strict" } }),
      "app.luma": APP,
    });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r).toEqual({ exitCode: 0, stdout: "out1\nout2\n", stderr: "debug 3 { a: 1 }\ninfo\nfine\n" });
  });
});
