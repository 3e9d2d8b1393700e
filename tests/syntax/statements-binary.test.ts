/** Statement separators and the `return` newline rule, driven through `dist/luma`. */
import { describe, expect, test } from "bun:test";
import { runLuma } from "../support/luma-binary";
import { programDir as program } from "./parse-helpers";

describe("§7 Statements: `;` separates statements on one line", () => {
  test("`x = 1; y = 2` on one line runs, in blocks too", () => {
    const dir = program(`x = 1; y = 2; print(x + y)\nfn f() { a = 3; return a }\nif true { print(f()); print("done") }\n`);
    expect(runLuma(["app.luma"], { cwd: dir })).toEqual({ exitCode: 0, stdout: "3\n3\ndone\n", stderr: "" });
  });

  test("`return` then a value on the next line is a check error at the return, never a silent bare return", () => {
    const r = runLuma(["app.luma"], { cwd: program(`fn f() -> int {\n  return\n    42\n}\nprint(f())\n`) });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith(
      "app.luma:2:3: error[E0252]: This 'return' returns nothing: its value must start on the same line, and the statement after it never runs.\n",
    );
  });
});

describe("§1 Lexical structure: a UTF-8 byte order mark opens a .luma file harmlessly", () => {
  test("a BOM before code or a shebang is accepted, and columns after it are counted without it", () => {
    expect(runLuma(["app.luma"], { cwd: program("\uFEFFx = 1\nprint(x)\n") })).toEqual({ exitCode: 0, stdout: "1\n", stderr: "" });
    expect(runLuma(["app.luma"], { cwd: program('\uFEFF#!/usr/bin/env luma\nprint("ok")\n') }).stdout).toBe("ok\n");
    const r = runLuma(["check", "app.luma"], { cwd: program('\uFEFFx = "abc\n') });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('app.luma:1:5: error[E0102]: Unterminated string\n  1 | x = "abc\n    |     ^\n');
  });
});
