/**
 * Test support: the user documentation as data — README.md and every page under docs/ —
 * so the tests that hold the docs to the code (snippets check, variables reach `--help`,
 * citations and links resolve) read the same set of pages and cannot drift apart. Lines
 * inside code fences are kept apart from prose: a `# comment` in a shell block is not a
 * heading, and a link written in a code sample is not a link.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "./luma-binary";

export interface DocPage {
  /** Path relative to the repository root, with `/` separators (`docs/cli.md`). */
  path: string;
  text: string;
}

export interface CodeBlock {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string (`luma`, `luma-error`, `sh`…). */
  lang: string;
  code: string;
}

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownUnder(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

/** README.md first, then docs/**\/*.md in path order. */
export function docPages(): DocPage[] {
  const files = [join(REPO, "README.md"), ...markdownUnder(join(REPO, "docs")).sort()];
  return files.map((f) => ({ path: relative(REPO, f).split("\\").join("/"), text: readFileSync(f, "utf8") }));
}

const FENCE = /^\s*(```+|~~~+)\s*([^\s`]*)/;

/** Every fenced block of a page, with its language and where it starts. */
export function codeBlocks(page: DocPage): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = page.text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const marker = open[1];
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trim().startsWith(marker)) body.push(lines[j++]);
    blocks.push({ page: page.path, line: i + 1, lang: open[2], code: `${body.join("\n")}\n` });
    i = j;
  }
  return blocks;
}

/** A page's lines with the lines of fenced blocks (fences included) blanked, numbering kept. */
export function proseLines(page: DocPage): string[] {
  const lines = page.text.split("\n");
  let marker: string | null = null;
  return lines.map((line) => {
    const open = FENCE.exec(line);
    if (marker === null && open) {
      marker = open[1];
      return "";
    }
    if (marker !== null) {
      if (line.trim().startsWith(marker)) marker = null;
      return "";
    }
    return line;
  });
}
