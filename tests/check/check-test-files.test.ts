/**
 * `luma check NAME.test.luma` (issue #18) through the real binary: a test file is checked
 * as `luma test` runs it — with the declarations of `NAME.luma` beside it — and every
 * diagnostic still names the file, line and column it was found at.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const base = mkdtempSync(join(tmpdir(), "luma-check-tests-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A fresh `luma init NAME` project under base. */
function initProject(name: string): string {
  const init = runLuma(["init", name], { cwd: base });
  expect(init.exitCode).toBe(0);
  return join(base, name);
}

describe("luma check: a test file NAME.test.luma sees the declarations of NAME.luma, as under luma test", () => {
  test("`luma init x` then `luma check x/main.test.luma` exits 0", () => {
    initProject("x");
    const r = runLuma(["check", "x/main.test.luma"], { cwd: base });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("x/main.test.luma: ok\n");
    expect(r.exitCode).toBe(0);
    const json = runLuma(["check", "--format", "json", "x/main.test.luma"], { cwd: base });
    expect(JSON.parse(json.stdout)).toEqual({ diagnostics: [] });
    expect(json.exitCode).toBe(0);
  });

  test("a real error in the test file is reported at the test file's file:line:col; exit 2", () => {
    const dir = initProject("bad-test");
    appendFileSync(join(dir, "main.test.luma"), '\ntest "calls a missing method" {\n  advice = Planner.nope("Lisbon")\n}\n');
    const r = runLuma(["check", "main.test.luma"], { cwd: dir });
    expect(r.stderr).toContain("main.test.luma:");
    expect(r.stderr).toMatch(/main\.test\.luma:\d+:12: error\[E\d{4}\]: Agent 'Planner' has no method 'nope'\./);
    expect(r.stderr).toContain('advice = Planner.nope("Lisbon")');
    // The names the test file takes from main.luma are known: no other error.
    expect(r.stderr).not.toContain("Unknown");
    expect(r.exitCode).toBe(2);
  });

  test("an error in NAME.luma is reported at NAME.luma's file:line:col; each file's diagnostics together", () => {
    const dir = initProject("bad-program");
    appendFileSync(join(dir, "main.luma"), '\nfn broken() -> int {\n  return "seven"\n}\n');
    appendFileSync(join(dir, "main.test.luma"), '\ntest "typo" {\n  n: int = "one"\n}\n');
    const r = runLuma(["check", "--format", "json", "main.test.luma"], { cwd: dir });
    const found = JSON.parse(r.stdout).diagnostics.map((d: any) => `${d.file}:${d.line}:${d.column} ${d.code}`);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^main\.luma:\d+:10 E0307$/);
    expect(found[1]).toMatch(/^main\.test\.luma:\d+:12 E\d{4}$/);
    expect(r.exitCode).toBe(2);
  });

  test("the test file's own top-level statements are still checked (luma check reports every error in its file)", () => {
    const dir = initProject("statements");
    appendFileSync(join(dir, "main.test.luma"), '\nz: int = "seven"\n');
    const r = runLuma(["check", "main.test.luma"], { cwd: dir });
    expect(r.stderr).toMatch(/main\.test\.luma:\d+:10: error/);
    expect(r.exitCode).toBe(2);
  });

  test("a test file without NAME.luma beside it is checked on its own (an unknown name is an error)", () => {
    writeFileSync(join(base, "alone.test.luma"), 'test "t" {\n  assert Planner.advise("x") == "y"\n}\n');
    const r = runLuma(["check", "alone.test.luma"], { cwd: base });
    expect(r.stderr).toContain("alone.test.luma:2:10: error[E0240]: Unknown agent 'Planner'.");
    expect(r.exitCode).toBe(2);
  });
});
