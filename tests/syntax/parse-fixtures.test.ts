/**
 * Golden parse fixtures: each `tests/fixtures/parse/*.luma` holds one syntax mistake and
 * ends with the diagnostic `luma check` prints for it (code, message, caret, hint).
 * Only the source before the expected block is parsed: an unterminated string or
 * comment would otherwise run into the block. `LUMA_UPDATE=1 bun test tests/syntax`
 * rewrites the blocks.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { renderDiagnostics } from "../../src/diagnostics/render";
import { parse } from "../../src/syntax/parse";
import { renderBlock, splitFixture } from "../support/golden-fixtures";

const ROOT = join(import.meta.dir, "..", "..");
const DIR = join(ROOT, "tests", "fixtures", "parse");
const fixtures = readdirSync(DIR).filter((f) => f.endsWith(".luma")).sort();

describe("§1 Syntax errors: codes and hints for the first hour's mistakes (golden fixtures)", () => {
  for (const name of fixtures) {
    test(`fixture ${name}`, () => {
      const path = join(DIR, name);
      const file = relative(ROOT, path).split("\\").join("/");
      const { source, expected } = splitFixture(readFileSync(path, "utf8"));
      const parsed = parse(source.replace(/\n\n$/, "\n"), file);
      expect(parsed.program).toBeUndefined();
      expect(parsed.diagnostics).toHaveLength(1);
      expect(parsed.diagnostics[0].code).toMatch(/^E01\d\d$/);
      const actual = renderDiagnostics(parsed.diagnostics, { color: false, sourceOf: (f) => (f === file ? source : undefined) });
      if (process.env.LUMA_UPDATE === "1") {
        writeFileSync(path, `${source}${renderBlock(actual)}`);
        return;
      }
      expect(expected).toBeDefined();
      expect(actual).toBe(expected!);
    });
  }
});

describe("§1 Diagnostics: carets align by display width", () => {
  test("CJK and emoji take two columns, combining marks none, tabs stay tabs", () => {
    const source = "x = \"\te\u0301😀こんにちは\"\n";
    const start = source.indexOf("こ");
    const d = { severity: "error" as const, message: "m", span: { file: "a.luma", start, end: start + 5 } };
    const [, , caretLine] = renderDiagnostics([d], { color: false, sourceOf: () => source }).split("\n");
    // `x = "` 5 columns, a tab, `é` (e + combining acute) 1, 😀 2; then 5 CJK × 2 carets.
    expect(caretLine).toBe(`    | ${" ".repeat(5)}\t${" ".repeat(3)}${"^".repeat(10)}`);
  });
});
