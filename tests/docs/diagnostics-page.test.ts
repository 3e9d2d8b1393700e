/**
 * docs/diagnostics.md is generated from the catalog (scripts/gen-diagnostics-doc.ts): the
 * page on disk must be exactly what the generator writes today, so a code added to
 * `src/diagnostics/catalog/` without `bun run docs:diagnostics` fails here, and the page
 * and `luma explain` (driven through the real binary) say the same thing.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { allCatalogEntries } from "../../src/diagnostics/catalog";
import { diagnosticsPagePath, renderDiagnosticsPage } from "../../scripts/gen-diagnostics-doc";
import { runLuma } from "../support/luma-binary";

const page = readFileSync(diagnosticsPagePath, "utf8");
const entries = allCatalogEntries();

describe("docs/diagnostics.md — the diagnostic catalog, generated", () => {
  test("the page is the generator's output (run `bun run docs:diagnostics` after a catalog change)", () => {
    expect(page).toBe(renderDiagnosticsPage());
  });

  test("every catalog code has exactly one row, with an anchor to link to", () => {
    const missing = entries.filter((e) => page.split(`<a id="${e.code.toLowerCase()}"></a>\`${e.code}\``).length !== 2).map((e) => e.code);
    expect(missing).toEqual([]);
  });

  test("every explanation ends a sentence, with no stray punctuation before its full stop (E0109 ended `def`),.)", () => {
    const stray = entries.filter((e) => /[,;:]\./.test(e.explanation) || !/[.!?)]$/.test(e.explanation.trim())).map((e) => e.code);
    expect(stray).toEqual([]);
    const r = runLuma(["explain", "E0109"]);
    expect(r.stdout).toContain("(not `func`, `function`\nor `def`).\n");
    expect(page).toContain("(not `func`, `function` or `def`). |");
  });

  test("a code in no group of the page is an error, never silently left out", () => {
    expect(() => renderDiagnosticsPage([{ code: "E1901", title: "t", explanation: "x" }])).toThrow("no group for E1901");
  });

  test("a `|` in an explanation cannot break the table", () => {
    const text = renderDiagnosticsPage([{ code: "E0101", title: "a | b", explanation: "x || y\nnext line" }]);
    expect(text).toContain("| a \\| b | x \\|\\| y next line |");
  });

  test("the first code of every stage reads on the page as `luma explain` prints it", () => {
    const firsts = [...new Map(entries.map((e) => [e.code.startsWith("E") ? e.code.slice(0, 3) : "runtime", e])).values()];
    for (const e of firsts) {
      const r = runLuma(["explain", e.code]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split("\n")[0]).toBe(`${e.code}: ${e.title}`);
      expect(page).toContain(`\`${e.code}\` | ${e.title} |`);
    }
  });
});
