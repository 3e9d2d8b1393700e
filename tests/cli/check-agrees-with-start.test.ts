/**
 * Issue #24 §2: what `luma` would refuse at start-up from the program and its config alone,
 * `luma check` refuses too, with the same code and message — a check and a run never disagree
 * (runtime/program-rules.ts). Each case runs both through `dist/luma`.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const ANTHROPIC = `model Claude { provider: "anthropic"  name: "claude-sonnet-4-5"  max_tokens: 1024 }\n`;

const CASES: { name: string; code: string; program: string; config?: object; message: string }[] = [
  {
    name: "E0604: a cached tool with needs",
    code: "E0604",
    // text_stats has a built-in handler: the registry is satisfied, the rule is what refuses.
    program: `schema Db { url: string }\nschema R { ok: bool }\ntool text_stats(text: string) -> R {\n  needs db: Db\n  cache: true\n}\nprint(1)\n`,
    message: "Cache cannot be used on a tool that uses needs: text_stats",
  },
  {
    name: "E0616: an agent's tool_contexts names a context the config does not define",
    code: "E0616",
    program: `agent A {\n  tool_contexts: ["dbb"]\n  fn run() -> int { return 1 }\n}\nprint(A.run())\n`,
    config: { tool_contexts: { db: { user: { env: "DB_USER" } } } },
    message: "Agent 'A' lists tool context 'dbb', which luma.config.json's tool_contexts does not define.",
  },
  {
    name: "E0615: an answer with `any` on an Anthropic model's strict mode",
    code: "E0615",
    program: `${ANTHROPIC}schema D { data: any }\nagent A {\n  model: Claude\n  fn run() -> D { return ask "q" -> D }\n}\nprint(A.run())\n`,
    message: "cannot be sent to provider 'anthropic' (model 'Claude') in strict mode",
  },
  {
    name: "E0617: a recursive answer on Anthropic",
    code: "E0617",
    program: `${ANTHROPIC}schema Node { name: string  children: Node[] }\nagent A {\n  model: Claude\n  fn run() -> Node { return ask "q" -> Node }\n}\nprint(A.run())\n`,
    message: "Schema 'Node' is recursive, and provider 'anthropic' (model 'Claude') cannot take a recursive schema",
  },
];

describe("luma check refuses what a start-up would, from the program and its config alone", () => {
  for (const c of CASES) {
    test(c.name, () => {
      const dir = mkdtempSync(join(tmpdir(), "luma-check-start-"));
      writeFileSync(join(dir, "app.luma"), c.program);
      if (c.config) writeFileSync(join(dir, "luma.config.json"), JSON.stringify(c.config));
      const checked = runLuma(["check", "app.luma"], { cwd: dir });
      const run = runLuma(["app.luma"], { cwd: dir, env: { ANTHROPIC_API_KEY: "sk-test" } });
      for (const r of [checked, run]) {
        expect(r.exitCode).toBe(2);
        expect(r.stderr).toContain(c.message);
        expect(r.stderr).toContain(c.code);
      }
      expect(checked.stdout).toBe("");
      expect(run.stdout).toBe("");
    });
  }

  test("a program that breaks none of them checks clean", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-check-start-"));
    writeFileSync(join(dir, "app.luma"), `${ANTHROPIC}schema D { data: string }\nagent A {\n  model: Claude\n  fn run() -> D { return ask "q" -> D }\n}\n`);
    const r = runLuma(["check", "app.luma"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("app.luma: ok\n");
  });
});
