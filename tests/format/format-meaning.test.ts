/**
 * `luma fmt` never changes meaning: over every example and test fixture, the checked AST
 * of the formatted text equals the original's (spans aside), the checker says the same,
 * every comment survives in order, and formatting twice changes nothing. The examples
 * are already in the canonical layout (CI runs `luma fmt --check examples`).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { check } from "../../src/check";
import { formatSource, withoutSpans } from "../../src/format/format-source";
import { parse } from "../../src/syntax/parse";
import { scanLexical } from "../../src/syntax/lexical-scan";
import { REPO } from "../support/luma-binary";

const lumaFiles = (dir: string): string[] =>
  (readdirSync(join(REPO, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith(".luma"))
    .sort()
    .map((f) => join(dir, f));

const FILES = [...lumaFiles("examples"), ...lumaFiles("tests")];

/** What the checker says, positions aside. */
const verdict = (text: string, file: string) => {
  const program = parse(text, file).program!;
  return { ast: withoutSpans(program), diagnostics: check(program).map((d) => [d.severity, d.code, d.message]) };
};
const comments = (text: string) => scanLexical(text).comments.map((c) => text.slice(c.start, c.end).trimEnd());

describe("luma fmt keeps meaning (issue #17: the checked AST before and after is equal)", () => {
  test("there are examples and fixtures to format", () => {
    expect(FILES.length).toBeGreaterThan(60);
  });

  for (const file of FILES) {
    const source = readFileSync(join(REPO, file), "utf8");
    if (!parse(source, file).program) continue; // a fixture of a syntax error: fmt leaves it alone
    test(`${file}: same checked AST and comments, idempotent`, () => {
      const once = formatSource(source, file);
      expect(once.diagnostics).toBeUndefined();
      expect(verdict(once.text!, file)).toEqual(verdict(source, file));
      expect(comments(once.text!)).toEqual(comments(source));
      expect(formatSource(once.text!, file).text).toBe(once.text!);
      if (file.startsWith("examples/")) expect(once.text).toBe(source);
    });
  }
});
