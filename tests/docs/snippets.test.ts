/**
 * Issue #18: the documentation's programs are programs. Every ```luma block of README.md
 * and docs/**\/*.md passes `dist/luma check` as written — no warnings-as-errors, but no
 * error either — so a page cannot teach syntax the checker rejects or drift from it after a
 * rule changes. A ```luma-error block shows a deliberate mistake: it must be rejected
 * (exit 2, a rendered `error[E…]` diagnostic), and if the page shows the diagnostic in the
 * block right after it, that text must be what `luma check` prints. Each block runs from a
 * file named after its page and line, so a failure points at the block.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CodeBlock, codeBlocks, docPages } from "../support/docs-pages";
import { runLuma } from "../support/luma-binary";

const blocks = docPages().flatMap(codeBlocks);
const dir = mkdtempSync(join(tmpdir(), "luma-doc-snippets-"));

function checkBlock(b: CodeBlock) {
  const file = join(dir, `${b.page.replace(/[/.]/g, "_")}_${b.line}.luma`);
  writeFileSync(file, b.code);
  return runLuma(["check", file]);
}

describe("issue #18: every luma block of README.md and docs/ passes luma check", () => {
  const programs = blocks.filter((b) => b.lang === "luma");

  test("the README and docs hold luma blocks", () => expect(programs.length).toBeGreaterThan(5));

  for (const b of programs) {
    test(`${b.page}:${b.line} checks clean`, () => {
      const r = checkBlock(b);
      expect(r.stderr.split("\n").filter((l) => /: error\[/.test(l))).toEqual([]);
      expect(r.exitCode).toBe(0);
    });
  }
});

describe("issue #18: a luma-error block is rejected, with the diagnostic the page shows", () => {
  blocks.forEach((b, i) => {
    if (b.lang !== "luma-error") return;
    test(`${b.page}:${b.line} is rejected by luma check`, () => {
      const r = checkBlock(b);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/error\[E\d{4}\]/);
      // The page's own rendering of the diagnostic, when it follows: every line of it appears.
      const next = blocks[i + 1];
      if (next && next.page === b.page && next.lang === "" && /error\[E\d{4}\]/.test(next.code)) {
        const shown = next.code.split("\n").map((l) => l.replace(/^\S*\.luma:/, "")).filter((l) => l.trim() !== "");
        const printed = r.stderr.replace(/\S*\.luma:/g, "");
        for (const line of shown) expect(printed).toContain(line);
      }
    });
  });
});
