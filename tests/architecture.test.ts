/**
 * ARCHITECTURE.md, held: the import graph of src/ follows its table of folders, and only
 * cli/ prints or exits. Imports are read from the source text (static `import … from`,
 * `export … from` and dynamic `import("…")`), resolved, and mapped to their folder.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO } from "./support/luma-binary";

const SRC = join(REPO, "src");
type Stage = string;

/** ARCHITECTURE.md § The folders: value imports, and type-only imports, each folder may make. */
const ALLOWED: Record<Stage, { values: Stage[]; types?: Stage[] }> = {
  diagnostics: { values: [] },
  syntax: { values: ["diagnostics"] },
  language: { values: ["syntax"], types: ["syntax"] },
  schema: { values: ["diagnostics"], types: ["syntax"] },
  check: { values: ["diagnostics", "language", "schema", "syntax"], types: ["syntax"] },
  typegen: { values: ["diagnostics", "language", "syntax"] },
  config: { values: ["diagnostics"] },
  load: { values: ["diagnostics", "syntax", "check", "root"] },
  runtime: { values: ["diagnostics", "language", "schema", "config", "syntax", "root"], types: ["syntax"] },
  mcp: { values: ["diagnostics", "schema", "config", "runtime", "root"], types: ["syntax"] },
  serve: { values: ["diagnostics", "runtime", "mcp"], types: ["syntax", "schema"] },
  build: { values: ["diagnostics", "config", "language", "load", "runtime", "syntax", "root"] },
  init: { values: ["diagnostics", "syntax", "typegen"] },
  format: { values: ["diagnostics", "syntax"] },
  lsp: { values: ["diagnostics", "syntax", "language", "check", "schema", "format", "root"], types: ["syntax"] },
  ui: { values: ["diagnostics", "config", "runtime"] },
  cli: { values: ["*"] },
  root: { values: ["diagnostics", "load", "runtime", "mcp", "serve", "typegen"], types: ["syntax"] },
};

/** ARCHITECTURE.md § Only cli/ prints or exits: the named exceptions (a process-tier child writes its console to stderr). */
const MAY_PRINT_OR_EXIT = new Set(["runtime/run/write-fully.ts", "runtime/base/exit-guard.ts", "runtime/tools/process-host/child-entry.ts"]);

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

  test("diagnostics/ imports no other folder, not even a type: Span is its own (diagnostics/span.ts), syntax/ re-uses it", () => {
    expect(all.filter((e) => e.from === "diagnostics").map((e) => `${e.file} → ${e.to}`)).toEqual([]);
  });

  test("runtime/ stands beside check/, not on it: it imports nothing from check/ (what the language is, it reads from language/)", () => {
    expect(all.filter((e) => e.from === "runtime" && e.to === "check").map((e) => e.file)).toEqual([]);
  });

  test("runtime/ imports nothing from mcp/: the MCP client is a tool source the composition root plugs in (openRemoteTools)", () => {
    expect(all.filter((e) => e.from === "runtime" && e.to === "mcp").map((e) => e.file)).toEqual([]);
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

  test("nothing imports cli/, not even build/: a built agent's command line is cli/run-built-agent.ts", () => {
    expect(all.filter((e) => e.to === "cli").map((e) => e.file)).toEqual([]);
  });

  test("the table is not looser than the code: every allowed arrow is used (or is a declared type-only one)", () => {
    const used = new Set(all.map((e) => `${e.from}>${e.to}`));
    const unused = Object.entries(ALLOWED).flatMap(([from, r]) => r.values.filter((to) => to !== "*" && !used.has(`${from}>${to}`)).map((to) => `${from} → ${to}`));
    expect(unused).toEqual([]);
  });
});

/**
 * ARCHITECTURE.md § Runtime layers: each area of src/runtime/ (its sub-folder; the files
 * directly in it are `start`, the composition root) and its rank. An import may point at
 * its own rank or lower, never higher; areas of one rank are siblings.
 */
const RUNTIME_LAYERS: Record<string, number> = {
  base: 0,
  stores: 1,
  "module-loading": 1,
  "module-policy": 1,
  telemetry: 1,
  journal: 2, // the durable record; the pipeline's journal steps write to it (tools/steps/journal-steps.ts)
  tools: 3, // the pipeline: steps/, registry/ (where loading meets the strict policy), trace/
  datasources: 4,
  usage: 4,
  providers: 5,
  ask: 6,
  interpreter: 7,
  run: 8,
  start: 8,
  testing: 9,
  evals: 9, // luma eval's runner: cases of an eval block over a dataset
};

/**
 * Arrows the layers do not allow yet, each with its why ("<file under runtime/> → <area>").
 * They are left out of both layer tests; a test fails once one is no longer needed.
 */
const RUNTIME_ALLOWANCES: Record<string, string> = {
  // Usage ranks below providers (reading a response's usage now lives with each family, in
  // providers/), but two of its files still name two of the providers' types; moving `Usage`
  // and `ResolvedModel`'s prices below both is the next step.
  "usage/token-totals.ts → providers": "type only: `Usage`, what it adds up",
  "usage/usage-ledger.ts → providers": "type only: `ResolvedModel`, whose prices give a cost",
};

const RUNTIME = join(SRC, "runtime");

/** The area of a path under src/runtime/: its sub-folder, or `start` for a file directly in it. */
function runtimeAreaOf(path: string): string {
  const parts = relative(RUNTIME, path).split("/");
  if (parts.length > 1) return parts[0]!;
  return existsSync(path) && statSync(path).isDirectory() ? parts[0]! : "start";
}

interface RuntimeEdge { file: string; target: string; from: string; to: string }

/** Every import between two areas of src/runtime/ (type-only ones too: a type is an arrow). */
function runtimeEdges(): RuntimeEdge[] {
  const out: RuntimeEdge[] = [];
  for (const file of sourceFiles(RUNTIME)) {
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[2] ?? m[3];
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(RUNTIME + "/")) continue;
      const [from, to] = [runtimeAreaOf(file), runtimeAreaOf(target)];
      if (from !== to) out.push({ file: relative(RUNTIME, file), target: relative(RUNTIME, target), from, to });
    }
  }
  return out;
}

const allowanceOf = (e: RuntimeEdge) => `${e.file} → ${e.to}`;

/** Strongly connected components (Tarjan) of more than one node. */
function circles(nodes: string[], next: (n: string) => string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>(), stack: string[] = [], out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) out.push(component.sort());
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return out;
}

describe("ARCHITECTURE.md: the runtime's layers", () => {
  const all = runtimeEdges();
  const held = all.filter((e) => !(allowanceOf(e) in RUNTIME_ALLOWANCES));

  test("every area of src/runtime/ has a rank in the table", () => {
    const areas = new Set(sourceFiles(RUNTIME).map(runtimeAreaOf));
    expect([...areas].filter((a) => !(a in RUNTIME_LAYERS))).toEqual([]);
  });

  test("no import runs from a lower area up to a higher one (each named: file → file)", () => {
    const up = held.filter((e) => RUNTIME_LAYERS[e.from]! < RUNTIME_LAYERS[e.to]!);
    expect(up.map((e) => `${e.file} → ${e.target} (${e.from} ${RUNTIME_LAYERS[e.from]} → ${e.to} ${RUNTIME_LAYERS[e.to]})`)).toEqual([]);
  });

  test("no import circle spans two areas (strongly connected components of the area graph)", () => {
    const next = new Map<string, Set<string>>();
    for (const e of held) next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
    expect(circles(Object.keys(RUNTIME_LAYERS), (a) => [...(next.get(a) ?? [])])).toEqual([]);
  });

  test("every allowance is still needed (an arrow fixed leaves the list)", () => {
    const used = new Set(all.map(allowanceOf));
    expect(Object.keys(RUNTIME_ALLOWANCES).filter((a) => !used.has(a))).toEqual([]);
  });
});

describe("ARCHITECTURE.md: only cli/ prints or exits", () => {
  test("only cli/ talks to the terminal: the approval prompt is the CLI's, the runtime asks through its `approve` callback", () => {
    const offenders = sourceFiles(SRC)
      .map((f) => relative(SRC, f))
      .filter((f) => !f.startsWith("cli/") && readFileSync(join(SRC, f), "utf8").includes('"/dev/tty"'));
    expect(offenders).toEqual([]);
  });

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

describe("ARCHITECTURE.md: a diagnostic is one catalog entry", () => {
  const withoutComments = (f: string) => readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

  test("check/ writes no diagnostic code of its own: every code it reports is a catalog entry's (diagnostics/catalog/)", () => {
    const offenders = sourceFiles(join(SRC, "check"))
      .filter((f) => /["'`]E0\d{3}["'`]/.test(withoutComments(f)))
      .map((f) => relative(SRC, f));
    expect(offenders).toEqual([]);
  });

  test("every check and type rule entry words its diagnostic: a `text` builder beside its code, title and explanation", async () => {
    const { CHECK_DIAGNOSTICS } = await import("../src/diagnostics/catalog/check-codes");
    const { TYPE_DIAGNOSTICS } = await import("../src/diagnostics/catalog/type-codes");
    const entries = [...Object.values(CHECK_DIAGNOSTICS), ...Object.values(TYPE_DIAGNOSTICS)];
    expect(entries.length).toBeGreaterThan(60);
    expect(entries.filter((e) => typeof e.text !== "function").map((e) => e.code)).toEqual([]);
  });
});

describe("ARCHITECTURE.md: one command table for the CLI", () => {
  test("options are declared only in cli/command-table-argv.ts: no other cli/ file spells one (but the top-level --help and --version)", () => {
    const TOP_LEVEL = new Set(["--help", "-h", "--version", "-v"]);
    const offenders = sourceFiles(join(SRC, "cli"))
      .map((f) => relative(SRC, f))
      .filter((f) => f !== "cli/command-table-argv.ts")
      .flatMap((f) => {
        const code = readFileSync(join(SRC, f), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
        return [...code.matchAll(/["'](--?[a-z][a-z0-9-]*)["']/g)].map((m) => m[1]!).filter((o) => !TOP_LEVEL.has(o)).map((o) => `${f}: ${o}`);
      });
    expect(offenders).toEqual([]);
  });
});

describe("ARCHITECTURE.md: a provider family is one folder and one line", () => {
  const PROVIDERS_DIR = join(SRC, "runtime/providers");
  /** The folders under runtime/providers/: one per family (shared code sits beside them). */
  const familyDirs = readdirSync(PROVIDERS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  /** The family folder a file is in, or undefined for any other file. */
  const familyOf = (path: string): string | undefined => {
    const rel = relative(PROVIDERS_DIR, path);
    return !rel.startsWith("..") && rel.includes("/") ? rel.split("/")[0] : undefined;
  };
  /** Every relative import of src/, as resolved paths (without extension). */
  const imports = sourceFiles(SRC).flatMap((file) => {
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    return [...text.matchAll(IMPORT)].map((m) => m[2] ?? m[3]).filter((s) => s.startsWith(".")).map((spec) => ({ file, to: resolve(dirname(file), spec) }));
  });

  test("families.ts lists every family folder, and nothing outside the folders but families.ts imports one", () => {
    const listed = readFileSync(join(PROVIDERS_DIR, "families.ts"), "utf8");
    expect(familyDirs.filter((dir) => !listed.includes(`from "./${dir}/`))).toEqual([]);
    const reaching = imports.filter((i) => familyOf(i.to) !== undefined && familyOf(i.file) === undefined && relative(PROVIDERS_DIR, i.file) !== "families.ts");
    expect(reaching.map((i) => `${relative(SRC, i.file)} → ${relative(SRC, i.to)}`)).toEqual([]);
  });

  test("a family folder imports its own files and the shared providers/ code — of another family only openai/, whose Chat Completions wire OpenAI-style APIs reuse", () => {
    const crossing = imports.filter((i) => {
      const from = familyOf(i.file);
      const to = familyOf(i.to);
      return from !== undefined && to !== undefined && to !== from && to !== "openai";
    });
    expect(crossing.map((i) => `${relative(SRC, i.file)} → ${relative(SRC, i.to)}`)).toEqual([]);
  });
});
