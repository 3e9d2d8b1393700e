/**
 * The parser's robustness through the real `dist/luma`: the reported 41-byte input, a
 * flat 20,000-term chain that must parse, check and evaluate, and nesting far past the
 * limit, each ending in an answer or a located error (exit 2), never a hang or a trace.
 */
import { describe, expect, test } from "bun:test";
import { runLuma } from "../support/luma-binary";
import { programDir as program } from "./parse-helpers";

describe("§1 Parse time is linear in the input for every input (dist/luma)", () => {
  test('`luma check` on an unterminated string of "{" (41 bytes) answers at once with the opening quote', () => {
    const source = `x = "${"{".repeat(36)}`;
    expect(source.length).toBe(41);
    const r = runLuma(["check", "app.luma"], { cwd: program(source) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toStartWith("app.luma:1:5: error[E0102]: Unterminated string\n");
  }, 30_000);

  test("a flat 20,000-term `a + a + …` parses, checks and evaluates", () => {
    const dir = program(`a = 1\nx = ${"a + ".repeat(19999)}a\nprint(x)\n`);
    expect(runLuma(["check", "app.luma"], { cwd: dir })).toMatchObject({ exitCode: 0, stdout: "app.luma: ok\n" });
    expect(runLuma(["app.luma"], { cwd: dir })).toEqual({ exitCode: 0, stdout: "20000\n", stderr: "" });
  }, 60_000);

  test("a flat chain of calls that suspend folds left to right without recursion", () => {
    const dir = program(`fn one() -> int {\n  return 1\n}\nx = ${"one() + ".repeat(9999)}one()\nprint(x)\ns = ${'"a" + '.repeat(5000)}"b"\nprint(len(s))\n`);
    expect(runLuma(["app.luma"], { cwd: dir })).toEqual({ exitCode: 0, stdout: "10000\n5001\n", stderr: "" });
  }, 60_000);

  test("nesting 20,000 deep is one located error, exit 2, not a stack overflow", () => {
    const r = runLuma(["check", "app.luma"], { cwd: program(`x = 1\ny = ${"[".repeat(20000)}1${"]".repeat(20000)}\n`) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toStartWith("app.luma:2:105: error[E0106]: Nesting deeper than 100 levels\n");
    expect(r.stderr).not.toMatch(/stack|internal/i);
  }, 30_000);
});
