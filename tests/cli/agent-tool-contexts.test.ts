/**
 * Issue #12.13 through the real binary: an agent's `tool_contexts` entry that names no
 * context of luma.config.json is a start-up error (exit 2, nothing run) at the list item,
 * with "did you mean" — never a TOOL_CONTEXT_INVALID deep inside the run.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-agent-contexts-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const APP = (contexts: string) => `print("ran")
agent Reporter {
  tool_contexts: ${contexts}
  fn go() -> int { 1 }
}
print(Reporter.go())
`;
const CONFIG = JSON.stringify({ tool_contexts: { db: { password: { env: "DB_PASSWORD" } } } });

describe("§6 tool_contexts of an agent name configured contexts", () => {
  test("a misspelt context: start-up error at the item, with did you mean, exit 2, nothing printed by the program", () => {
    const dir = project({ "app.luma": APP('["dbb"]'), "luma.config.json": CONFIG });
    expect(runLuma(["app.luma"], { cwd: dir })).toEqual({
      exitCode: 2,
      stdout: "",
      stderr:
        "app.luma:3:19: error[E0616]: Agent 'Reporter' lists tool context 'dbb', which luma.config.json's tool_contexts does not define.\n" +
        '  3 |   tool_contexts: ["dbb"]\n' +
        "    |                   ^^^^^\n" +
        "  hint: did you mean `db`?\n",
    });
  });

  test("no config at all: the context is unknown too, and the hint says none is configured", () => {
    const dir = project({ "app.luma": APP('["db"]') });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[E0616]: Agent 'Reporter' lists tool context 'db'");
    expect(r.stderr).toContain("hint: configured contexts: none");
  });

  test("configured names and an empty list start normally", () => {
    for (const contexts of ['["db"]', "[]"]) {
      const dir = project({ "app.luma": APP(contexts), "luma.config.json": CONFIG });
      expect(runLuma(["app.luma"], { cwd: dir })).toEqual({ exitCode: 0, stdout: "ran\n1\n", stderr: "" });
    }
  });
});
