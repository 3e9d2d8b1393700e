/**
 * Test support for `sandbox: "process"` through the real binary: whether bubblewrap can run
 * here (the tests are skipped, with the reason, where it cannot — except under CI=true, where
 * they run and fail), the pinned strict gap that reaches the host's `Bun` and `process`, and
 * throw-away projects.
 */
import { test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const bwrapWorks = Bun.spawnSync(["sh", "-c", "bwrap --ro-bind / / --unshare-all --cap-drop ALL true"], { stderr: "ignore" }).exitCode === 0;
const skipped = !bwrapWorks && process.env.CI !== "true";
if (skipped) console.warn("process-sandbox tests skipped: bubblewrap is not installed or cannot create namespaces here (apt-get install bubblewrap)");
/** `test`, or `test.skip` where bubblewrap cannot run. */
export const it = skipped ? test.skip : test;

/** The host's `Bun` and `process` through the pinned gap (the handler's own input leads to the host Function), in a CommonJS module. */
export const GAP = `const H = (i) => i.constructor.constructor; const B = (i) => H(i)("return Bu" + "n")(); const P = (i) => H(i)("return pro" + "cess")();\n`;

/** A fresh directory under os.tmpdir() holding `files` (path → text). */
export function projectDir(prefix: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The environment a run gets: nothing of the test's own but PATH. */
export const RUN_ENV = { PATH: process.env.PATH, LUMA_NO_CACHE: "1", NO_COLOR: "1" };
