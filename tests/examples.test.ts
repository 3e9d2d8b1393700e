/**
 * Every numbered example runs through the built binary and matches its expected output
 * (`examples/expected/NNN_name.out`: exit code, stdout, stderr). `LUMA_UPDATE=1` rewrites them.
 * An example's arguments, if any, are on a `// test-args:` line in the file, and the
 * environment variables it needs on a `// test-env: K=V …` line.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runLuma } from "./support/luma-binary";

const EXAMPLES = join(REPO, "examples");
const EXPECTED = join(EXAMPLES, "expected");
// `NNN_name.test.luma` files are the examples' tests (`luma test`, tests/examples-luma-test.test.ts), not examples.
const files = readdirSync(EXAMPLES).filter((f) => /^\d{3}_.*\.luma$/.test(f) && !f.endsWith(".test.luma")).sort();

function render(r: { exitCode: number; stdout: string; stderr: string }): string {
  return `exit: ${r.exitCode}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

describe("examples/ (each runnable, with its expected output)", () => {
  test("there are numbered examples, including the seed's 018_direct_tool.luma", () => {
    expect(files).toContain("018_direct_tool.luma");
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  for (const file of files) {
    test(file, () => {
      const source = readFileSync(join(EXAMPLES, file), "utf8");
      const extra = source.match(/^\/\/ test-args: (.*)$/m)?.[1].split(" ") ?? [];
      // `// test-env: K=V K2=V2`: variables the example needs (credentials, contexts, keys).
      const envPairs = source.match(/^\/\/ test-env: (.*)$/m)?.[1].split(" ") ?? [];
      const env = Object.fromEntries(envPairs.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
      const r = runLuma([`examples/${file}`, ...extra], { env });
      const actual = render(r);
      const goldenPath = join(EXPECTED, file.replace(/\.luma$/, ".out"));
      if (process.env.LUMA_UPDATE === "1") {
        mkdirSync(EXPECTED, { recursive: true });
        writeFileSync(goldenPath, actual);
      }
      // A missing golden file is a failure, never a silent write: a new example must come
      // with its reviewed expected output (LUMA_UPDATE=1 writes it).
      if (!existsSync(goldenPath)) throw new Error(`examples/expected/${file.replace(/\.luma$/, ".out")} is missing; run LUMA_UPDATE=1 bun test tests/examples.test.ts and review it`);
      expect(actual).toBe(readFileSync(goldenPath, "utf8"));
    });
  }
});
