/**
 * Issue #24 §2: errors point at the mistake — each first-hour slip gets its fix as the hint,
 * through `dist/luma check`, and no message ends with an invisible character. A table of
 * [slip, source, the diagnostic line, the hint].
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const dir = mkdtempSync(join(tmpdir(), "luma-first-hour-"));

const CASES: [string, string, string, string][] = [
  ["a # comment", "# comment\nprint(1)\n", "app.luma:1:1: error[E0101]: Expected a declaration, a statement or the end of the file", "hint: Comments are `//` (or `/* … */`); `#!` only opens a script's first line."],
  ["let x = 1", "let x = 1\nprint(x)\n", "app.luma:1:1: error[E0233]: Unknown name 'let'.", "hint: Luma has no `let`: write `x = 1` (or `x: int = 1` to give it a type)"],
  ["elif", "x = 1\nif x > 0 {\n  print(1)\n} elif x < 0 {\n  print(2)\n}\n", "error[E0109]", "hint: Luma writes `else if` for `elif`: } else if cond { … }."],
  [
    "a declared tool called like a function",
    'schema R { ok: bool }\ntool lookup(id: string) -> R {}\nr = lookup({ id: "a" })\n',
    "app.luma:3:5: error[E0238]: Unknown function 'lookup'.",
    "hint: `lookup` is a tool: call it as `tool lookup({…})`, with one object of its parameters",
  ],
  ["tool t() with no object", "schema R { ok: bool }\ntool t() -> R {}\nr = tool t()\n", "app.luma:3:12: error[E0101]: Expected an expression", "hint: A tool is called with one object: `tool name({})`, or `tool name({ field: value })`."],
  [
    "a tool returning a list",
    "schema Item { id: string }\ntool list_items() -> Item[] {}\n",
    "app.luma:2:22: error[E0222]: Tool 'list_items' must return a declared schema, not 'Item[]'.",
    "hint: wrap it in a schema: `schema ListItemsResult { items: Item[] }`, and return that",
  ],
];

describe("first-hour slips: the diagnostic, and the fix as its hint", () => {
  for (const [slip, source, diagnostic, hint] of CASES) {
    test(slip, () => {
      writeFileSync(join(dir, "app.luma"), source);
      const r = runLuma(["check", "app.luma"], { cwd: dir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(diagnostic);
      expect(r.stderr).toContain(hint);
      expect(r.stderr).not.toContain("\uFEFF");
    });
  }

  test("a syntax error's expected list never names the shebang or the byte order mark", () => {
    writeFileSync(join(dir, "app.luma"), "x = 1\nprint(x))\n");
    const r = runLuma(["check", "app.luma"], { cwd: dir });
    expect(r.stderr).toContain("error[E0101]: Expected a declaration, a statement or the end of the file\n");
    expect(r.stderr).not.toContain('"#!"');
  });
});

describe("a mistyped option after FILE is a usage error, not a program argument", () => {
  test("luma app.luma --replya x.jsonl: exit 64 with did-you-mean; other --words still reach args; -- passes anything", () => {
    writeFileSync(join(dir, "args.luma"), "print(args)\n");
    const typo = runLuma(["args.luma", "--replya", "x.jsonl"], { cwd: dir });
    expect(typo.exitCode).toBe(64);
    expect(typo.stderr).toStartWith("luma: unknown option --replya; did you mean --replay? (after FILE, put program arguments that look like this after --)\n");
    expect(runLuma(["args.luma", "--verbose", "one"], { cwd: dir }).stdout).toBe('["--verbose","one"]\n');
    expect(runLuma(["args.luma", "--", "--replya", "x"], { cwd: dir }).stdout).toBe('["--replya","x"]\n');
  });
});
