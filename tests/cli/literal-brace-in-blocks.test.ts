/**
 * Issue #24 §2, through `dist/luma check`: a `"{\"a\": 1}"` string (a `{` meant as a
 * character that opens an interpolation) inside a block — a test's `mock` list, an assert
 * message, a `replay` path, a function body — is reported where it happens, E0107 at the
 * `{` with the `\{` hint top-level code gets, not "Unterminated string" (E0102) at the
 * string's start: there, the block's own `}` closed the interpolation and the string then
 * ran to the end of the file. In a test file (`NAME.test.luma`) and in a program file.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const dir = mkdtempSync(join(tmpdir(), "luma-literal-brace-"));

const HINT = 'error[E0107]: Unclosed "{" in string interpolation (write \\{ for a literal brace)';

/** [where, the source, the `{`'s line, its column]. */
const CASES: [string, string, number, number][] = [
  ["a test's mock list", 'model M { provider: "mock" }\n\ntest "t" {\n  mock M ["{\\"a\\": 1}"]\n  assert true\n}\n', 4, 12],
  ["a mock list's second string", 'model M { provider: "mock" }\ntest "t" {\n  mock M ["ok", "{\\"a\\": 1}", "fine"]\n}\n', 3, 18],
  ["an assert message in a test", 'test "t" {\n  assert 1 == 1, "{\\"a\\": 1}"\n  assert true\n}\n', 2, 19],
  ["a test's replay path", 'test "t" {\n  replay "{\\"a\\"}.json"\n  assert true\n}\n', 2, 11],
  ["a test block closed on the string's line", 'test "t" {\n  x = "{\\"a\\": 1}" }\n', 2, 8],
  ["a function body", 'fn f() -> string {\n  x = "{\\"a\\": 1}"\n  return x\n}\nprint(f())\n', 2, 8],
  ["an if block", 'if true {\n  print("{\\"a\\": 1}")\n}\n', 2, 10],
];

describe("a literal `{` in a string inside a block: E0107 at the brace", () => {
  for (const file of ["app.test.luma", "app.luma"]) {
    for (const [where, source, line, col] of CASES) {
      test(`${where} (${file})`, () => {
        writeFileSync(join(dir, file), source);
        const r = runLuma(["check", file], { cwd: dir });
        expect(r.exitCode).toBe(2);
        expect(r.stderr.split("\n")[0]).toBe(`${file}:${line}:${col}: ${HINT}`);
        expect(r.stderr).not.toContain("Unterminated string");
      });
    }
  }

  test("a string really left open in a block is still E0102 at its start", () => {
    writeFileSync(join(dir, "open.luma"), 'fn f() -> string {\n  return "abc\n}\n');
    const r = runLuma(["check", "open.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe("open.luma:2:10: error[E0102]: Unterminated string");
  });

  test("an interpolation over several lines stays valid", () => {
    writeFileSync(join(dir, "multi.luma"), 'fn f(n: int) -> string {\n  return "n is {\n    n + 1 }"\n}\nprint(f(1))\n');
    expect(runLuma(["check", "multi.luma"], { cwd: dir }).exitCode).toBe(0);
  });
});
