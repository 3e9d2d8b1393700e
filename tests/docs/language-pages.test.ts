/**
 * The language reference (docs/language/*.md) shows real Luma: every ```luma block passes
 * `dist/luma check`, and every ```luma-error block (a deliberate mistake) is rejected with
 * exactly the diagnostic the page shows in the ```text block right after it. Each block is
 * checked as a file of its own, named `example.luma`, so the shown text names that file.
 * A block holding `test` blocks also passes `luma test`. The pages keep the shared layout:
 * one top heading each.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { DIR, blocks, page, pages, scratchDir } from "./language-page-reading";

const work = scratchDir();
function checkSnippet(code: string) {
  writeFileSync(join(work, "example.luma"), code);
  return runLuma(["check", "example.luma"], { cwd: work });
}


describe("docs/language — every snippet is real Luma", () => {
  test("the reference has its pages", () => {
    expect(pages).toEqual(["agents.md", "functions.md", "imports.md", "lexical.md", "models.md", "multi-agent.md", "schemas.md", "std-tools.md", "testing.md", "tools.md", "types.md"]);
  });

  for (const page of pages) {
    const text = readFileSync(join(DIR, page), "utf8");
    const all = blocks(text);

    test(`${page}: one top heading`, () => {
      const outside = text.split("\n").filter((_, i) => !all.some((b) => i + 1 >= b.line && i + 1 <= b.line + b.code.split("\n").length));
      expect(outside.filter((l) => /^# /.test(l)).length).toBe(1);
    });

    all.forEach((b, i) => {
      if (b.lang === "luma") {
        test(`${page}:${b.line}: a \`luma\` block passes luma check`, () => {
          const r = checkSnippet(b.code);
          expect(r.stderr + r.stdout).toBe("example.luma: ok\n");
          expect(r.exitCode).toBe(0);
        });
      }
      if (b.lang === "luma" && /^test "/m.test(b.code)) {
        test(`${page}:${b.line}: its test blocks pass \`luma test\``, () => {
          writeFileSync(join(work, "example.luma"), b.code);
          const r = runLuma(["test", "example.luma"], { cwd: work });
          expect(r.stdout).not.toContain("FAIL");
          expect(r.stdout).toMatch(/^[1-9]\d* passed, 0 failed$/m);
          expect(r.exitCode).toBe(0);
        });
      }
      if (b.lang === "luma-error") {
        test(`${page}:${b.line}: a \`luma-error\` block is rejected with the diagnostic the page shows`, () => {
          const shown = all[i + 1];
          expect(shown?.lang).toBe("text");
          const r = checkSnippet(b.code);
          expect(r.exitCode).toBe(2);
          expect(r.stderr).toBe(shown!.code);
        });
      }
    });
  }
});

// ------------------------------------------------------------------------------------
// The pages list exactly what the code has. A reference that names a builtin, a key or a
// keyword the code does not have (or misses one it has) is wrong the day the code moves;
// these tests make that a test failure instead.
