/**
 * Reading the reference pages in tests: their fenced blocks (with the line each opens on),
 * their Markdown tables (cells split on unescaped bars) and the code spans of a cell, and a
 * scratch directory where a test writes `example.luma` and runs the real binary on it.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../support/luma-binary";

export const DIR = join(REPO, "docs", "language");
export const pages = readdirSync(DIR).filter((f) => f.endsWith(".md")).sort();

export const page = (name: string): string => readFileSync(join(DIR, name), "utf8");

/** A fresh directory for one test file's `example.luma`. */
export const scratchDir = (): string => mkdtempSync(join(tmpdir(), "luma-docs-"));

export interface Block {
  lang: string;
  code: string;
  line: number;
}

/** The fenced blocks of a page, in order, with the line each opens on. */
export function blocks(text: string): Block[] {
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

/** The cells of a Markdown table row (`\|` inside a cell is a literal bar). */
export const cells = (row: string): string[] =>
  row.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));

/** The body rows of the first table whose header row starts with `firstHeader`, after `after`. */
export function table(text: string, firstHeader: string, after = ""): string[][] {
  const lines = text.slice(text.indexOf(after)).split("\n");
  const head = lines.findIndex((l) => l.startsWith("|") && cells(l)[0] === firstHeader);
  if (head < 0) throw new Error(`no table with header '${firstHeader}'`);
  const rows: string[][] = [];
  for (let i = head + 2; i < lines.length && lines[i]!.startsWith("|"); i++) rows.push(cells(lines[i]!));
  return rows;
}

/** The `code` spans of a cell, in order. */
export const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
