/**
 * Issue #18: docs/ is the reference, so every section mark the code cites must be a heading
 * there, and every link of the documentation must land. Two tables are built from the pages
 * — the section marks of the reference pages, and those of the provider wire notes — and
 * every citation in src/, tests/, examples/ and scripts/ is looked up in the one it means:
 *  - a dotted mark (`3.4`), or a mark whose nearest marker to its left on the line is
 *    `PROVIDERS` or `wire`, is a wire note: a heading of docs/providers/wire-formats.md;
 *  - a mark after `issue #N` cites that issue's parts, not the docs, and is not looked up;
 *  - any other mark (`spec` + mark, or a bare mark) is a section of the language and
 *    runtime: a heading of another page, and each such mark is a heading exactly once.
 * Links: every relative link in README.md and docs/**\/*.md names an existing file, and its
 * `#fragment` a heading of that file under GitHub's slug rules. Each failure names
 * file:line and what is missing, so a moved heading shows every stale citation at once.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { REPO } from "../support/luma-binary";
import { type DocPage, docPages, proseLines } from "../support/docs-pages";

const WIRE_PAGE = "docs/providers/wire-formats.md";
/** The section sign, written as an escape so this file cites nothing itself. */
const S = "\u00a7";
const CITATION = new RegExp(`${S}\\s?(\\d+(?:\\.\\d+)*)`, "g");
/** What a citation on a line refers to is said by the nearest of these to its left. */
const MARKERS: [RegExp, "wire" | "docs" | "issue"][] = [
  [/PROVIDERS|\bwire\b/gi, "wire"],
  [/\bspec\b|LANGUAGE/g, "docs"],
  [/\bissue #\d+/gi, "issue"],
];
const CITING_ROOTS = ["src", "tests", "examples", "scripts"];
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|luma|md|txt|json|jsonl|scopes|ohm|sh)$/;

const pages = docPages();

/** `## §9 The tool call pipeline` → "9"; a heading without a leading mark → null. */
function headingMark(text: string): string | null {
  const m = new RegExp(`^${S}(\\d+(?:\\.\\d+)*)(?![\\d.]*\\d)`).exec(text.trim());
  return m ? m[1] : null;
}

interface Heading { text: string; line: number }

function headings(page: DocPage): Heading[] {
  return proseLines(page).flatMap((line, i) => {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    return m ? [{ text: m[1], line: i + 1 }] : [];
  });
}

/** GitHub's heading ids (github-slugger): inline markup dropped, lower case, punctuation removed, spaces → `-`, repeats numbered. */
function slugs(page: DocPage): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(page)) {
    const plain = h.text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const base = plain.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function marksOf(list: DocPage[]): Map<string, string[]> {
  const marks = new Map<string, string[]>();
  for (const page of list) {
    for (const h of headings(page)) {
      const mark = headingMark(h.text);
      if (mark) marks.set(mark, [...(marks.get(mark) ?? []), `${page.path}:${h.line}`]);
    }
  }
  return marks;
}

const wireMarks = marksOf(pages.filter((p) => p.path === WIRE_PAGE));
const docMarks = marksOf(pages.filter((p) => p.path.startsWith("docs/") && p.path !== WIRE_PAGE));

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : filesUnder(p);
    return TEXT_FILE.test(e.name) ? [p] : [];
  });
}

function kindBefore(before: string): "wire" | "docs" | "issue" {
  let best = -1;
  let kind: "wire" | "docs" | "issue" = "docs";
  for (const [re, k] of MARKERS) {
    for (const m of before.matchAll(re)) {
      if (m.index! > best) [best, kind] = [m.index!, k];
    }
  }
  return kind;
}

interface Citation { where: string; mark: string; wire: boolean }

function citations(): Citation[] {
  const out: Citation[] = [];
  for (const file of CITING_ROOTS.flatMap((r) => filesUnder(join(REPO, r)))) {
    const rel = relative(REPO, file);
    readFileSync(file, "utf8").split("\n").forEach((line, i) => {
      for (const m of line.matchAll(CITATION)) {
        const kind = kindBefore(line.slice(0, m.index));
        if (kind === "issue") continue;
        out.push({ where: `${rel}:${i + 1}`, mark: m[1], wire: m[1].includes(".") || kind === "wire" });
      }
    });
  }
  return out;
}

describe("issue #18: every section mark cited in the code is a heading in docs/", () => {
  const all = citations();

  test("the code cites both the reference and the wire notes", () => {
    expect(all.filter((c) => c.wire).length).toBeGreaterThan(10);
    expect(all.filter((c) => !c.wire).length).toBeGreaterThan(100);
  });

  test(`a dotted or PROVIDERS/wire citation is a heading of ${WIRE_PAGE}`, () => {
    const missing = all.filter((c) => c.wire && !wireMarks.has(c.mark)).map((c) => `${c.where}: ${S}${c.mark} (no such heading in ${WIRE_PAGE})`);
    expect(missing).toEqual([]);
  });

  test("every other citation is a heading of a reference page in docs/", () => {
    const missing = all.filter((c) => !c.wire && !docMarks.has(c.mark)).map((c) => `${c.where}: ${S}${c.mark} (no such heading in docs/)`);
    expect(missing).toEqual([]);
  });

  test("each section mark is a heading exactly once (outside the wire notes, and within them)", () => {
    const twice = [...docMarks, ...wireMarks].filter(([, at]) => at.length > 1).map(([mark, at]) => `${S}${mark} at ${at.join(", ")}`);
    expect(twice).toEqual([]);
  });
});

describe("issue #18: every relative link in README.md and docs/ lands", () => {
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const slugCache = new Map<string, Set<string>>();
  const slugsOf = (path: string) => {
    if (!slugCache.has(path)) {
      const page = byPath.get(path) ?? { path, text: readFileSync(join(REPO, path), "utf8") };
      slugCache.set(path, slugs(page));
    }
    return slugCache.get(path)!;
  };

  test("each page has exactly one top heading", () => {
    const wrong = pages
      .filter((p) => p.path.startsWith("docs/") || p.path === "README.md")
      .map((p) => [p.path, headings(p).filter((h) => /^#\s/.test(proseLines(p)[h.line - 1])).length] as const)
      .filter(([, n]) => n !== 1)
      .map(([path, n]) => `${path}: ${n} top headings`);
    expect(wrong).toEqual([]);
  });

  test("relative links name existing files, and fragments existing headings", () => {
    const broken: string[] = [];
    for (const page of pages) {
      proseLines(page).forEach((raw, i) => {
        const line = raw.replace(/`[^`]*`/g, "");
        for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
          const target = m[1];
          if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
          const [file, fragment] = target.split("#") as [string, string | undefined];
          const path = file === "" ? page.path : relative(REPO, join(REPO, dirname(page.path), decodeURI(file))).split("\\").join("/");
          const where = `${page.path}:${i + 1}`;
          if (!existsSync(join(REPO, path))) {
            broken.push(`${where}: ${target} (no file ${path})`);
            continue;
          }
          if (fragment !== undefined && path.endsWith(".md") && statSync(join(REPO, path)).isFile() && !slugsOf(path).has(decodeURIComponent(fragment))) {
            broken.push(`${where}: ${target} (no heading #${fragment} in ${path})`);
          }
        }
      });
    }
    expect(broken).toEqual([]);
  });
});
