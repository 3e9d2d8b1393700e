/**
 * The language reference (docs/language/*.md) shows real Luma: every ```luma block passes
 * `dist/luma check`, and every ```luma-error block (a deliberate mistake) is rejected with
 * exactly the diagnostic the page shows in the ```text block right after it. Each block is
 * checked as a file of its own, named `example.luma`, so the shown text names that file.
 * A block holding `test` blocks also passes `luma test`. The pages keep the shared layout:
 * one top heading each.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";

const DIR = join(REPO, "docs", "language");
const pages = readdirSync(DIR).filter((f) => f.endsWith(".md")).sort();

interface Block {
  lang: string;
  code: string;
  line: number;
}

/** The fenced blocks of a page, in order, with the line each opens on. */
function blocks(text: string): Block[] {
  const out: Block[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i]!);
    out.push({ lang: open[1]!, code: body.join("\n") + "\n", line: start + 1 });
  }
  return out;
}

const work = mkdtempSync(join(tmpdir(), "luma-docs-"));
function checkSnippet(code: string) {
  writeFileSync(join(work, "example.luma"), code);
  return runLuma(["check", "example.luma"], { cwd: work });
}

describe("docs/language — every snippet is real Luma", () => {
  test("the reference has its pages", () => {
    expect(pages).toEqual(["agents.md", "functions.md", "lexical.md", "models.md", "schemas.md", "testing.md", "tools.md", "types.md"]);
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
