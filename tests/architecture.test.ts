/**
 * ARCHITECTURE.md, held: the import graph of src/ follows its table of folders, and only
 * cli/ prints or exits. Imports are read from the source text (static `import … from`,
 * `export … from` and dynamic `import("…")`), resolved, and mapped to their folder.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO } from "./support/luma-binary";

const SRC = join(REPO, "src");
type Stage = string;

/** ARCHITECTURE.md § The folders: value imports, and type-only imports, each folder may make. */
const ALLOWED: Record<Stage, { values: Stage[]; types?: Stage[] }> = {
  diagnostics: { values: [], types: ["syntax"] },
  syntax: { values: ["diagnostics"] },
  language: { values: ["syntax"], types: ["syntax"] },
  schema: { values: ["diagnostics"], types: ["syntax"] },
  check: { values: ["diagnostics", "language", "schema", "syntax"], types: ["syntax"] },
  typegen: { values: ["diagnostics", "syntax"] },
  config: { values: ["diagnostics"] },
  load: { values: ["diagnostics", "syntax", "check", "root"] },
  runtime: { values: ["diagnostics", "language", "schema", "config", "mcp", "syntax", "root"], types: ["syntax"] },
  mcp: { values: ["diagnostics", "schema", "config", "runtime", "root"], types: ["syntax"] },
  build: { values: ["diagnostics", "config", "load", "runtime", "cli", "syntax", "root"] },
  init: { values: ["diagnostics", "syntax", "typegen"] },
  format: { values: ["diagnostics", "syntax"] },
  lsp: { values: ["diagnostics", "syntax", "language", "check", "schema", "format", "root"], types: ["syntax"] },
  cli: { values: ["*"] },
  root: { values: ["diagnostics", "load", "runtime", "mcp", "typegen"], types: ["syntax"] },
};

/** ARCHITECTURE.md § Only cli/ prints or exits: the two named exceptions. */
const MAY_PRINT_OR_EXIT = new Set(["runtime/run/write-fully.ts", "runtime/run/exit-guard.ts"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

/** The folder of a path under src/ ("root" for src/*.ts); undefined outside src/ (package.json, dist/). */
function stageOf(path: string): Stage | undefined {
  const rel = relative(SRC, path);
  if (rel.startsWith("..")) return undefined;
  const parts = rel.split("/");
  return parts.length === 1 ? "root" : parts[0];
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

interface Edge { file: string; from: Stage; to: Stage; typeOnly: boolean }

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = stageOf(file)!;
    // Comments may show imports as examples: drop them first.
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[2] ?? m[3];
      if (!spec.startsWith(".")) continue;
      const to = stageOf(resolve(dirname(file), spec));
      if (to === undefined || to === from) continue;
      out.push({ file: relative(SRC, file), from, to, typeOnly: m[1] !== undefined });
    }
  }
  return out;
}

describe("ARCHITECTURE.md: the import graph", () => {
  const all = edges();

  test("every folder of src/ is in the table", () => {
    const stages = new Set(sourceFiles(SRC).map((f) => stageOf(f)!));
    expect([...stages].filter((s) => !(s in ALLOWED))).toEqual([]);
  });

  test("every import between folders is an allowed arrow (values, or types where only types are allowed)", () => {
    const bad = all
      .filter((e) => {
        const rule = ALLOWED[e.from];
        if (rule.values.includes("*") || rule.values.includes(e.to)) return false;
        return !(e.typeOnly && rule.types?.includes(e.to));
      })
      .map((e) => `${e.file}: ${e.from} → ${e.to}${e.typeOnly ? " (type)" : ""}`);
    expect(bad).toEqual([]);
  });

  test("syntax/ never imports runtime/ (nor any later stage)", () => {
    expect(all.filter((e) => e.from === "syntax" && e.to !== "diagnostics")).toEqual([]);
  });

  test("diagnostics/ imports nothing of the stages except types", () => {
    expect(all.filter((e) => e.from === "diagnostics" && !e.typeOnly)).toEqual([]);
  });

  test("runtime/ stands beside check/, not on it: it imports nothing from check/ (what the language is, it reads from language/)", () => {
    expect(all.filter((e) => e.from === "runtime" && e.to === "check").map((e) => e.file)).toEqual([]);
  });

  test("language/ is read by everyone and reads nothing but the AST: no check/, runtime/ or diagnostics text", () => {
    expect(all.filter((e) => e.from === "language" && e.to !== "syntax").map((e) => `${e.file} → ${e.to}`)).toEqual([]);
  });

  test("runtime/ reads the AST but never builds one: from syntax/ it imports types, and assertNever (no parser loads)", () => {
    const bad = sourceFiles(join(SRC, "runtime")).flatMap((file) => {
      const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
      return [...text.matchAll(IMPORT)]
        .filter((m) => m[1] === undefined && (m[2] ?? m[3]).startsWith("."))
        .map((m) => relative(SRC, resolve(dirname(file), m[2] ?? m[3])))
        .filter((to) => to.startsWith("syntax/") && to !== "syntax/assert-never")
        .map((to) => `${relative(SRC, file)} → ${to}`);
    });
    expect(bad).toEqual([]);
  });

  test("nothing but build/ imports cli/", () => {
    expect(all.filter((e) => e.to === "cli" && e.from !== "build").map((e) => e.file)).toEqual([]);
  });

  test("the table is not looser than the code: every allowed arrow is used (or is a declared type-only one)", () => {
    const used = new Set(all.map((e) => `${e.from}>${e.to}`));
    const unused = Object.entries(ALLOWED).flatMap(([from, r]) => r.values.filter((to) => to !== "*" && !used.has(`${from}>${to}`)).map((to) => `${from} → ${to}`));
    expect(unused).toEqual([]);
  });
});

describe("ARCHITECTURE.md: only cli/ prints or exits", () => {
  test("outside cli/ no file calls console.*, process.exit or writes stdout/stderr (but the two named exceptions)", () => {
    const PRINTS = /\bconsole\.(log|error|warn|info)\(|\bprocess\.exit\(|\bprocess\.(stdout|stderr)\.write\(|\bwriteSync\(\s*[12]\s*,/;
    const offenders = sourceFiles(SRC)
      .map((f) => relative(SRC, f))
      .filter((f) => !f.startsWith("cli/") && !MAY_PRINT_OR_EXIT.has(f))
      .filter((f) => {
        const code = readFileSync(join(SRC, f), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
        return PRINTS.test(code);
      });
    expect(offenders).toEqual([]);
  });
});
