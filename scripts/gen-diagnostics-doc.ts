/**
 * Writes `docs/diagnostics.md`, the diagnostic catalog as a page, from the one catalog in
 * `src/diagnostics/catalog/` — so the page and `luma explain` can never say different
 * things. The page is a table per stage (the ranges of catalog-entry.ts): code, title,
 * explanation. Examples stay with `luma explain CODE`, which prints them; a page of 150
 * examples would be too long to read.
 *
 * Run: `bun run docs:diagnostics` (= `bun scripts/gen-diagnostics-doc.ts`).
 * `tests/docs/diagnostics-page.test.ts` fails when the page is not what this writes, so a
 * new catalog entry reaches the page in the same commit.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { allCatalogEntries, type CatalogEntry } from "../src/diagnostics/catalog";

export const diagnosticsPagePath = join(import.meta.dir, "..", "docs", "diagnostics.md");

interface Group {
  /** Which codes belong here. */
  matches: (code: string) => boolean;
  heading: string;
  about: string;
}

const range = (prefix: string) => (code: string) => code.startsWith(prefix);

/** One group per stage, in the order a program meets them; the catalog's own ranges. */
const GROUPS: readonly Group[] = [
  { matches: range("E01"), heading: "E01xx: parse errors", about: "The text does not fit the grammar ([§1](language/lexical.md)). Reported by `luma check` and before every run; exit code 2." },
  { matches: range("E02"), heading: "E02xx: check rules", about: "Declarations, names, calls and tool consistency rules. Errors (exit code 2) except E0245, a warning." },
  { matches: range("E03"), heading: "E03xx: static types", about: "The type checker ([types](language/types.md#static-type-rules)): programs that could only fail at run time. Errors except E0303, a warning." },
  { matches: range("E04"), heading: "E04xx: luma.config.json", about: "The configuration file ([configuration](configuration.md)). Start-up errors, exit code 2." },
  { matches: range("E05"), heading: "E05xx: tool modules and the strict policy", about: "Loading tool modules ([modules](modules.md)). Start-up errors, exit code 2." },
  { matches: range("E06"), heading: "E06xx: start-up", about: "Everything else a run checks before its first statement: the registry, bridges, stores, files, provider schemas. Exit code 2. Those that depend only on the program and its config — E0604, E0615, E0616, E0617 — `luma check` reports too, so a check and a run never disagree on them." },
  { matches: range("E07"), heading: "E07xx: luma build", about: "Building one executable ([build](build.md))." },
  { matches: range("E08"), heading: "E08xx: MCP", about: "Serving and calling MCP tools ([MCP](mcp.md))." },
  { matches: range("E09"), heading: "E09xx: durable runs", about: "The run journal ([durable runs](durable-runs.md))." },
  { matches: range("E10"), heading: "E10xx: imports between files", about: "`import { … } from \"./x.luma\"` ([imports](language/imports.md)): reported by `luma check` and before every run, at the import or the use, in the file it belongs to; exit code 2." },
  { matches: range("E11"), heading: "E11xx: check rules, many agents", about: "Agents listed as tools of other agents ([multi-agent](language/multi-agent.md)); the E02xx range is full. Errors, exit code 2." },
  { matches: range("E12"), heading: "E12xx: `parallel`", about: "The check rules of `parallel` and `parallel for` ([parallel](language/functions.md#parallel)): branches that would race on a variable or leave their block. Errors, exit code 2." },
  { matches: range("E13"), heading: "E13xx: the standard tool set `luma:std`", about: "The `\"std\"` block of luma.config.json ([std tools](language/std-tools.md)), judged when a program that imports a `luma:std` tool starts. Start-up errors, exit code 2. (Its import errors are E1008–E1009.)" },
  { matches: range("E14"), heading: "E14xx: `luma eval`", about: "`eval` blocks and `score` statements ([eval](eval.md)): the check rules (errors, exit code 2) and what `luma eval` rejects before it runs the cases — a dataset it cannot read or a line that is not JSON, a `--min` or `--model` that names nothing (exit code 2, or 1 when no eval is found)." },
  { matches: range("E15"), heading: "E15xx: luma ui", about: "The local web app ([ui](ui.md)): where it listens, what it shows. Start-up errors, exit code 2." },
  { matches: (code) => !code.startsWith("E"), heading: "Runtime error codes", about: "Failures while the program runs ([pipeline](pipeline.md)), printed as `Error: [CODE] message` and seen by `catch e` as `e.code`; uncaught, exit code 1. Listed in the order the tool pipeline meets them." },
];

/** A table cell: one line, no bare `|`. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|").trim();

const row = (e: CatalogEntry) => `| <a id="${e.code.toLowerCase()}"></a>\`${e.code}\` | ${cell(e.title)} | ${cell(e.explanation)} |`;

/** The full text of docs/diagnostics.md for a catalog. */
export function renderDiagnosticsPage(entries: readonly CatalogEntry[] = allCatalogEntries()): string {
  const lines = [
    "# Diagnostic catalog",
    "",
    "<!-- Generated by scripts/gen-diagnostics-doc.ts from src/diagnostics/catalog/. Do not edit by hand: run `bun run docs:diagnostics`. -->",
    "",
    "Every diagnostic Luma prints has a stable code; a code never changes meaning. A check",
    "diagnostic shows it in its label, a start-up error on the line under its message:",
    "",
    "```text",
    "app.luma:2:7: error[E0233]: Unknown name 'greting'.",
    "  2 | print(greting)",
    "    |       ^^^^^^^",
    "  hint: did you mean `greeting`?",
    "",
    "Error: 'send_mail' is not registered in the tool registry.",
    "  = code E0601 (luma explain E0601)",
    "```",
    "",
    "`luma explain CODE` prints a code's title, its explanation and a short example that",
    "triggers it (case does not matter: `luma explain tool_timeout`). `luma check --format json`",
    "gives each diagnostic's `code` as a field. How diagnostics are rendered: [command line](cli.md).",
    "",
  ];
  const placed = new Set<string>();
  for (const group of GROUPS) {
    const members = entries.filter((e) => group.matches(e.code));
    if (members.length === 0) continue;
    // E-codes by number; runtime codes keep the catalog's order (the pipeline's).
    const ordered = group.heading.startsWith("E") ? [...members].sort((a, b) => a.code.localeCompare(b.code)) : members;
    lines.push(`## ${group.heading}`, "", group.about, "", "| code | title | meaning |", "|---|---|---|");
    for (const e of ordered) {
      lines.push(row(e));
      placed.add(e.code);
    }
    lines.push("");
  }
  // A code in no group would silently vanish from the page: fail instead.
  const lost = entries.filter((e) => !placed.has(e.code)).map((e) => e.code);
  if (lost.length > 0) throw new Error(`no group for ${lost.join(", ")}: add one to GROUPS in scripts/gen-diagnostics-doc.ts`);
  return lines.join("\n");
}

if (import.meta.main) {
  writeFileSync(diagnosticsPagePath, renderDiagnosticsPage());
  console.log(`wrote ${diagnosticsPagePath}`);
}
