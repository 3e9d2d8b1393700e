/**
 * Golden fixtures: each `tests/fixtures/check/*.luma` ends with a comment block holding
 * the diagnostics `luma check` must print for it, rendered plain with the fixture's
 * repository-relative path as the file name. `LUMA_UPDATE=1 bun test tests/check`
 * rewrites the blocks (review the diff before committing).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { check } from "../../src/check";
import { catalogEntry } from "../../src/diagnostics/catalog";
import { renderDiagnostics } from "../../src/diagnostics/render";
import { parse } from "../../src/syntax/parse";
import { renderBlock, splitFixture } from "../support/golden-fixtures";

const ROOT = join(import.meta.dir, "..", "..");
const DIR = join(ROOT, "tests", "fixtures", "check");

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith(".luma"))
  .sort();

describe("§2–7, §12 luma check: golden fixtures", () => {
  test("there is a fixture per rule family", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
  });

  test("every diagnostic the fixtures produce has a code the catalog explains", () => {
    const uncoded = fixtures.flatMap((name) => {
      const file = join(DIR, name);
      return check(parse(readFileSync(file, "utf8"), name).program!)
        .filter((d) => d.code === undefined || !catalogEntry(d.code))
        .map((d) => `${name}: ${d.message}`);
    });
    expect(uncoded).toEqual([]);
  });

  for (const name of fixtures) {
    test(`fixture ${name}`, () => {
      const path = join(DIR, name);
      const file = relative(ROOT, path).split("\\").join("/");
      const text = readFileSync(path, "utf8");
      const { source, expected } = splitFixture(text);
      // The whole text is parsed: the expected block is comments at the end, so the
      // positions of the source are the same with or without it.
      const parsed = parse(text, file);
      expect(parsed.diagnostics.map((d) => d.message)).toEqual([]);
      const diagnostics = check(parsed.program!);
      const actual = renderDiagnostics(diagnostics, { color: false, sourceOf: (f) => (f === file ? text : undefined) });
      if (process.env.LUMA_UPDATE === "1") {
        writeFileSync(path, `${source}${renderBlock(actual)}`);
        return;
      }
      expect(expected).toBeDefined();
      expect(actual).toBe(expected!);
    });
  }
});
