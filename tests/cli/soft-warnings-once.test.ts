/**
 * Issue #12.13 through the real binary: a soft rule's warning on an `ask` (or tool) result
 * prints once, even when the method returns it under its declared type or a typed
 * assignment keeps it (each validates it again, under another root); a new value that
 * breaks the rule still warns. See src/runtime/base/soft-issue-report.ts (freshSoftIssues).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { ensureBinary } from "../support/luma-binary";

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-soft-once-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function run(dir: string, args: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn([ensureBinary(), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { exitCode, stdout, stderr };
}

const MOOD = `schema Mood { level: int @range(0, 5) @severity("soft") }\n`;

describe("§3 soft rules: one warning per issue of a value", () => {
  test("an ask result returned by its method and kept by a typed assignment warns once", async () => {
    const fake = await startFakeProvider();
    try {
      fake.script([{ json: { level: 9 } }]);
      const dir = project({
        "app.luma": `model M { provider: "openai", name: "gpt-5.4-mini" }
${MOOD}agent A {
  model: M
  fn go() -> Mood {
    ask "How?" -> Mood
  }
}
m: Mood = A.go()
print(m.level)
fresh: Mood = { level: 7 }
`,
      });
      const r = await run(dir, ["app.luma"], { OPENAI_API_KEY: "k", LUMA_BASE_URL_M: fake.baseUrl("openai") });
      expect(r).toEqual({
        exitCode: 0,
        stdout: "9\n",
        stderr: "warning: Mood.level must be <= 5 (@range) at app.luma:6:5\nwarning: fresh.level must be <= 5 (@range) at app.luma:11:1\n",
      });
    } finally {
      fake.stop();
    }
  });

  test("a tool result returned by a typed fn warns once", async () => {
    const dir = project({
      "app.luma": `${MOOD}tool mood(q: string) -> Mood { side_effects: "none" }\nfn get() -> Mood {\n  tool mood({ q: "x" })\n}\nprint(get().level)\n`,
      "t.ts": "export const mood = () => ({ level: 8 });\n",
    });
    const r = await run(dir, ["app.luma", "--tool-module", "t.ts"]);
    expect(r).toEqual({ exitCode: 0, stdout: "8\n", stderr: "warning: mood.output.level must be <= 5 (@range).\n" });
  });
});
