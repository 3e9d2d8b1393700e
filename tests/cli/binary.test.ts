/** End to end: the built `dist/luma` binary, driven as a user drives it. */
import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, REPO, runLuma } from "../support/luma-binary";

const tmp = () => mkdtempSync(join(tmpdir(), "luma-bin-"));

describe("the standalone binary", () => {
  test("runs with no node_modules next to it: copied to an empty directory, it runs an example", () => {
    const dir = tmp();
    copyFileSync(ensureBinary(), join(dir, "luma"));
    chmodSync(join(dir, "luma"), 0o755);
    copyFileSync(join(REPO, "examples/018_direct_tool.luma"), join(dir, "app.luma"));
    const r = runLuma(["app.luma"], { cwd: dir, bin: join(dir, "luma") });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("5");
  });

  test("loads a TypeScript tool module that imports LumaToolError from \"luma\", outside the repo", () => {
    const dir = tmp();
    writeFileSync(join(dir, "tools.ts"), `import { LumaToolError } from "luma";
export const lumaTools = { fail: (input: { why: string }) => { throw new LumaToolError({ code: "NOPE", message: input.why, retryable: false, details: { n: 1 } }); } };
`);
    writeFileSync(join(dir, "app.luma"), `schema R { ok: bool }
tool fail(why: string) -> R {}
try { tool fail({ why: "because" }) } catch e { print(e.code, e.message, e.retryable, e.details) }
`);
    const r = runLuma(["app.luma", "--tool-module", "tools.ts"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('NOPE because false {"n":1}\n');
  });

  test("shebang scripts: `#!/usr/bin/env luma` with the executable bit", () => {
    const dir = tmp();
    copyFileSync(ensureBinary(), join(dir, "luma"));
    chmodSync(join(dir, "luma"), 0o755);
    writeFileSync(join(dir, "script.luma"), '#!/usr/bin/env luma\nprint("args:", args)\n');
    chmodSync(join(dir, "script.luma"), 0o755);
    const r = Bun.spawnSync([join(dir, "script.luma"), "one", "--two"], {
      cwd: dir,
      env: { PATH: `${dir}:${process.env.PATH}`, HOME: process.env.HOME, LUMA_NO_CACHE: "1" },
    });
    expect(r.stderr.toString()).toBe("");
    expect(r.stdout.toString()).toBe('args: ["one","--two"]\n');
  });

  test("--version and --help exit 0; a usage error exits 64", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
    expect(runLuma(["--version"]).stdout).toBe(`luma ${pkg.version}\n`);
    const help = runLuma(["--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("luma check FILE.luma");
    const bad = runLuma(["--nope"]);
    expect(bad.exitCode).toBe(64);
    expect(bad.stderr).toContain("unknown option --nope");
  });
});
