/**
 * The operations reference (docs/cli.md, configuration.md, pipeline.md, telemetry.md and the
 * other docs/*.md pages) held to the code: each page lists exactly what the code has. The
 * lists are read from the code itself — the option tables and literals of src/cli, the
 * config schema's table, the pipeline's step table, the `event` literals the runtime writes,
 * the `env.X` reads of src/, the catalog — so a flag, key, step, event or variable added to
 * the code without its line in the docs (or a line left behind after a removal) fails here.
 * The binary's own `--help` is checked against the same code lists.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHECK_OPTIONS, MCP_OPTIONS, OPTIONS } from "../../src/cli/argv";
import { TEST_OPTIONS } from "../../src/cli/dev-loop-argv";
import { EXIT } from "../../src/cli/report-error";
import { TOOL_KEYS } from "../../src/language/keys/tool-keys";
import { CONFIG_SCHEMA } from "../../src/config/config-schema";
import type { Rule } from "../../src/config/shape-rules";
import { allCatalogEntries } from "../../src/diagnostics/catalog";
import { PIPELINE_STEPS } from "../../src/runtime/tools/pipeline";
import type { PipelineRuntime } from "../../src/runtime/tools/steps/step";
import { codeBlocks, docPages, proseLines, type DocPage } from "../support/docs-pages";
import { REPO, runLuma } from "../support/luma-binary";

const read = (path: string) => readFileSync(join(REPO, path), "utf8");
const page = (path: string): DocPage => ({ path, text: read(path) });
const sourceFiles = (dir: string): string[] =>
  readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
const matches = (text: string, re: RegExp, group = 1): string[] => [...text.matchAll(re)].map((m) => m[group]!);
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
/** The rows of the first Markdown table after `heading` (cells trimmed, header and rule dropped). */
function tableAfter(p: DocPage, heading: string): string[][] {
  const lines = p.text.split("\n");
  let i = lines.findIndex((l) => l.trim() === heading);
  expect(i).toBeGreaterThan(-1);
  while (!lines[i]!.startsWith("|")) i++;
  const rows: string[][] = [];
  for (i += 2; i < lines.length && lines[i]!.startsWith("|"); i++) rows.push(lines[i]!.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
  return rows;
}

const cli = page("docs/cli.md");
const commandsBlock = codeBlocks(cli)[0]!.code;
const help = runLuma(["--help"]);
const argvSources = ["src/cli/argv.ts", ...readdirSync(join(REPO, "src/cli")).filter((f) => f.endsWith("-argv.ts")).map((f) => `src/cli/${f}`)];
const argvText = argvSources.map(read).join("\n");
/** Every option the command line recognises: the string literals of the argv parsers. */
const codeFlags = sorted(matches(argvText, /"(--?[a-z][a-z0-9-]*)"/g));
const FLAG = /(?<![\w`.-])(--?[a-z][a-z0-9-]*)/g;

describe("§15 docs/cli.md lists exactly the binary's commands, options and variables", () => {
  test("`luma --help` runs and every option it names is one the parsers recognise", () => {
    expect(help.exitCode).toBe(0);
    const helpFlags = sorted(matches(help.stdout, FLAG)).filter((f) => !/^-[A-Z]/.test(f));
    expect(helpFlags.filter((f) => !codeFlags.includes(f))).toEqual([]);
  });

  test("every option the parsers recognise is on the page, and the page names no other", () => {
    const pageFlags = sorted(matches(proseLines(cli).join("\n") + commandsBlock, FLAG));
    expect(codeFlags.filter((f) => !pageFlags.includes(f))).toEqual([]);
    expect(pageFlags.filter((f) => !codeFlags.includes(f))).toEqual([]);
  });

  /**
   * The options of `luma <head>` in the commands block: those on its own line before the
   * description column (column 43), and those of the indented lines under it up to the next
   * `luma` line, without their trailing description (the last run after two spaces).
   */
  const flagsUnder = (head: string): string[] => {
    const lines = commandsBlock.split("\n");
    const start = lines.findIndex((l) => l.startsWith(`luma ${head}`));
    expect(start).toBeGreaterThan(-1);
    const own = [lines[start]!.slice(0, 43)];
    for (let i = start + 1; i < lines.length && lines[i]!.startsWith("  "); i++) own.push(lines[i]!.slice(0, 43).includes("--") ? lines[i]! : "");
    return sorted(own.flatMap((l) => matches(l.replace(/\s{2,}\S[^-]*$/, ""), FLAG)));
  };
  const tables: [string, Record<string, unknown>][] = [
    ["FILE.luma", OPTIONS],
    ["check", CHECK_OPTIONS],
    ["test", TEST_OPTIONS],
    ["mcp FILE.luma", MCP_OPTIONS],
  ];
  for (const [head, table] of tables) {
    test(`\`luma ${head}\` lists exactly its option table`, () => {
      expect(flagsUnder(head)).toEqual(sorted(Object.keys(table)));
    });
  }

  test("each option the page lists under build, runs, approve, deny, mcp import, fmt and lsp is accepted there, and a missing one is refused", () => {
    const probes: [string, string[], string[]][] = [
      ["build", ["build", "x.luma", "-o", "out"], ["--output", "--tool-module", "--config", "--target"]],
      ["runs [show ID]", ["runs", "--journal", "/nonexistent/j.sqlite"], ["--config", "--format"]],
      ["approve", ["approve", "--run-id", "r", "--journal", "/nonexistent/j.sqlite"], ["--step", "--digest", "--json", "--config"]],
      ["runs answer", ["runs", "answer", "--run-id", "r", "--json", "{}", "--journal", "/nonexistent/j.sqlite"], ["--step", "--digest", "--json", "--config"]],
      ["deny", ["deny", "--run-id", "r", "--journal", "/nonexistent/j.sqlite"], ["--step", "--config"]],
    ];
    for (const [head, base, options] of probes) {
      expect(flagsUnder(head).filter((f) => !["-o", "--run-id", "--journal"].includes(f))).toEqual(sorted(options));
      for (const option of options) {
        const r = runLuma([...base, `${option}=${option === "--format" ? "json" : "x"}`]);
        expect({ option, usage: r.exitCode === 64 ? r.stderr : "" }).toEqual({ option, usage: "" });
      }
    }
    // deny has no --digest (only approve pins a call's arguments).
    expect(runLuma(["deny", "--run-id", "r", "--digest", "d"]).stderr).toContain("luma deny does not take --digest");
    expect(flagsUnder("mcp import")).toEqual(["--config"]);
    expect(flagsUnder("fmt")).toEqual(["--check"]);
    expect(flagsUnder("lsp")).toEqual(["--stdio"]);
  });

  test("every command the dispatcher knows is a `luma …` line of the page, and the page shows no other", () => {
    const words = sorted([
      ...matches(argvText, /first === "([a-z]+)"/g),
      ...matches(argvText, /new Set\(\[([^\]]*)\]\)/g).flatMap((list) => matches(list, /"([a-z]+)"/g)),
    ]);
    expect(words).toContain("approve");
    const shown = sorted(matches(commandsBlock, /^luma ([a-z]+)/gm).concat(matches(commandsBlock, /^luma --\S+ \| -\S \| ([a-z]+)/gm)));
    expect(shown).toEqual(words);
    for (const sub of ["mcp import", "runs [show ID]"]) expect(commandsBlock).toContain(`luma ${sub}`);
    // `luma --help` shows the same commands (the word aliases `help` and `version` aside).
    const usage = help.stdout.slice(help.stdout.indexOf("Usage:"), help.stdout.indexOf("Options"));
    const inHelp = sorted(matches(usage, /^ {2}luma ([a-z]+(?:\|[a-z]+)*)/gm).flatMap((w) => w.split("|")));
    expect(inHelp).toEqual(words.filter((w) => w !== "help" && w !== "version"));
  });

  /** The variables src/ reads by name: `env.X`, `env["X"]`, the OTLP `pick(env, "X")` pairs, providers' `keyEnv`. */
  const codeVariables = (): string[] => {
    // Code only: comments, and the catalog's examples of user code (`process.env.API_KEY`), name no variable Luma reads.
    const text = sourceFiles("src")
      .filter((f) => !f.startsWith("src/diagnostics/catalog/"))
      .map((f) => read(f).replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, ""))
      .join("\n");
    return sorted([
      ...matches(text, /\benv(?:\.|\[["`])([A-Z][A-Z0-9_]*[A-Z0-9])\b(?!\$)/g),
      ...matches(text, /pick\(env, "([A-Z]+)"\)/g).flatMap((n) => [`OTEL_EXPORTER_OTLP_${n}`, `OTEL_EXPORTER_OTLP_TRACES_${n}`]),
      ...matches(text, /keyEnv: "([A-Z0-9_]+)"/g),
      ...(/`LUMA_BASE_URL_\$\{/.test(text) ? ["LUMA_BASE_URL_<MODEL>"] : []),
    ]);
  };
  const envRows = tableAfter(cli, "## Environment");
  const pageVariables = sorted(envRows.flatMap((r) => matches(r[0]!, /`([A-Z][A-Z0-9_]*(?:<MODEL>)?)[`=]/g)));

  test("the Environment table names every variable the code reads, and only those", () => {
    const code = codeVariables();
    expect(code).toContain("OTEL_SDK_DISABLED");
    expect(code.filter((v) => !pageVariables.includes(v))).toEqual([]);
    expect(pageVariables.filter((v) => !code.includes(v))).toEqual([]);
  });

  test("every variable `luma --help` names is one the code reads", () => {
    const env = help.stdout.slice(help.stdout.indexOf("Environment:"));
    const named = sorted(matches(env, /\b([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?:_<MODEL>)?|NO_COLOR)\b/g)).map((v) => v.replace("_<MODEL>", "_<MODEL>"));
    const code = codeVariables();
    expect(named.filter((v) => !code.includes(v) && !code.includes(`${v}<MODEL>`))).toEqual([]);
  });

  test("the exit-code table is EXIT of report-error.ts plus the signal and pipe codes", () => {
    const pageCodes = tableAfter(cli, "## Exit codes").flatMap((r) => matches(r[0]!, /`(\d+)`/g)).map(Number).sort((a, b) => a - b);
    const ending = sourceFiles("src/runtime/run").map(read).join("\n");
    const signalCodes = [130, 141, 143].filter((c) => ending.includes(String(c)));
    expect(signalCodes).toEqual([130, 141, 143]);
    expect(pageCodes).toEqual([...Object.values(EXIT), ...signalCodes].sort((a, b) => a - b));
  });
});

/** Every key a rule accepts, as dotted paths (`journal.table`, `tool_modules[].integrity`). */
function schemaKeys(rule: Rule, path: string): string[] {
  const r = rule as { kind: string; fields?: Record<string, Rule>; of?: Rule; object?: Rule };
  if (r.kind === "object") return Object.entries(r.fields ?? {}).flatMap(([k, v]) => [path ? `${path}.${k}` : k, ...schemaKeys(v, path ? `${path}.${k}` : k)]);
  if (r.kind === "list") return schemaKeys(r.of!, `${path}[]`);
  if (r.kind === "map") return schemaKeys(r.of!, `${path}.*`);
  if (r.kind === "stringOr") return schemaKeys(r.object!, path);
  return [];
}

describe("§10 docs/configuration.md lists exactly the keys of src/config/config-schema.ts", () => {
  const rows = tableAfter(page("docs/configuration.md"), "## Keys");
  const top = (CONFIG_SCHEMA as { fields: Record<string, Rule> }).fields;

  test("the Keys table has one row per top-level key, in no other", () => {
    expect(sorted(rows.map((r) => r[0]!.replace(/`/g, "")))).toEqual(sorted(Object.keys(top)));
  });

  test("each row names every key nested under its key, and every enum value those keys take", () => {
    for (const [key, rule] of Object.entries(top)) {
      const row = rows.find((r) => r[0] === `\`${key}\``)!.join(" ");
      const nested = sorted(schemaKeys(rule, key).map((p) => p.split(".").pop()!.replace("[]", "")).filter((k) => k !== "*"));
      const values: string[] = [];
      const walk = (r: unknown) => {
        if (r && typeof r === "object") {
          const o = r as { kind?: string; values?: string[] };
          if (o.kind === "enum") values.push(...o.values!);
          Object.values(o).forEach(walk);
        }
      };
      walk(rule);
      const missing = [...nested, ...values].filter((w) => !new RegExp(`(?<![\\w-])${w.replace(/[-.]/g, "\\$&")}(?![\\w-])`).test(row));
      expect({ key, missing }).toEqual({ key, missing: [] });
    }
  });

  test("every `{ a, b }` key list in the table names keys the schema has", () => {
    const all = new Set(Object.keys(top).flatMap((k) => schemaKeys(top[k]!, k)).map((p) => p.split(".").pop()!.replace("[]", "")));
    const listed = rows.flatMap((r) => matches(r[1]!, /\{ ([a-z_, ]+) \}/g).flatMap((l) => l.split(", ")));
    expect(listed.filter((k) => !all.has(k))).toEqual([]);
  });
});

describe("§10 docs/modules.md's strict-policy table lists exactly tool_module_policy's keys", () => {
  test("one row per key of the schema's tool_module_policy, with its enum values and int minimum", () => {
    const fields = ((CONFIG_SCHEMA as { fields: Record<string, Rule> }).fields.tool_module_policy as { fields: Record<string, Rule> }).fields;
    const rows = tableAfter(page("docs/modules.md"), "## Strict policy");
    expect(rows.map((r) => r[0]!.replace(/`/g, ""))).toEqual(Object.keys(fields));
    for (const [key, rule] of Object.entries(fields)) {
      const values = rows.find((r) => r[0] === `\`${key}\``)![1]!;
      const r = rule as { kind: string; values?: string[]; min?: number };
      const expected = r.kind === "enum" ? r.values!.map((v) => `\`${v}\``).join(" · ") : r.kind === "int" ? `int ≥ ${r.min}` : r.kind === "bool" ? "bool" : r.kind === "boolOrList" ? "bool · string list" : "string list";
      expect({ key, values }).toEqual({ key, values: expected });
    }
  });
});

describe("§9 docs/pipeline.md shows the steps of PIPELINE_STEPS, in order", () => {
  test("each row of the step table starts with the step's name in src/runtime/tools/steps/", () => {
    const names = PIPELINE_STEPS.map((f) => f({} as PipelineRuntime).name);
    const rows = tableAfter(page("docs/pipeline.md"), "# §9 The tool call pipeline");
    expect(rows.length).toBe(names.length);
    rows.forEach((row, i) => {
      const [number, ...rest] = names[i]!.split(" ");
      const numbered = /^\d+$/.test(number!);
      expect({ row: row[0], step: row[1]!.replace(/`/g, "").split(" (")[0] }).toEqual({
        row: numbered ? number : "—",
        step: expect.stringMatching(new RegExp(`^${(numbered ? rest.join(" ") : names[i]!).replace(/[+/]/g, "\\$&")}`)),
      });
    });
  });
});

describe("§9 docs/pipeline.md's options table gives the tool keys' defaults", () => {
  test("each option row is a key of TOOL_KEYS, and a literal default is the table's default", () => {
    const rows = tableAfter(page("docs/pipeline.md"), "## Options that shape a call");
    const keys = TOOL_KEYS as Record<string, { default?: unknown }>;
    // `needs name: Type` is a clause of the tool's declaration, not a key of its block.
    for (const row of rows.filter((r) => !r[0]!.startsWith("`needs "))) {
      const key = row[0]!.replace(/`/g, "").split(/[ :]/)[0]!;
      expect({ key, known: Object.hasOwn(keys, key) }).toEqual({ key, known: true });
      const written = row[1]!.replace(/`/g, "");
      if (written !== "—" && !written.includes(" ")) expect({ key, default: written }).toEqual({ key, default: JSON.stringify(keys[key]!.default) });
      if (written === "—") expect({ key, default: keys[key]!.default }).toEqual({ key, default: undefined });
    }
  });
});

describe("§14 docs/telemetry.md lists exactly the trace events the runtime writes", () => {
  const written = () => {
    // The MCP client writes its servers' log lines and progress (src/mcp/server-notices.ts).
    const text = [...sourceFiles("src/runtime"), ...sourceFiles("src/mcp")].map(read).join("\n");
    const literal = matches(text, /\bevent: "([a-z]+(?:\.[a-z]+)?)"/g);
    // Statements write `${kind}.call` for their kind (statement-plans.ts).
    const statements = /event: `\$\{s\.kind\}\.call`/.test(text) ? ["query.call", "command.call"] : [];
    return sorted([...literal, ...statements]);
  };

  test("the event table's names are the runtime's `event` values", () => {
    const rows = tableAfter(page("docs/telemetry.md"), "## The trace file");
    expect(sorted(rows.flatMap((r) => matches(r[0]!, /`([a-z.]+)`/g)))).toEqual(written());
  });

  /** The field names of an exported interface in `file`, without `event`. */
  const interfaceFields = (file: string, name: string): string[] => {
    const text = read(file);
    const start = text.indexOf(`export interface ${name} {`);
    expect(start).toBeGreaterThan(-1);
    const body = text.slice(start, text.indexOf("\n}", start));
    return sorted(matches(body, /^ {2}([a-z_]+)\??:/gm).filter((f) => f !== "event"));
  };
  const rowFields = (event: string): string[] => {
    const row = tableAfter(page("docs/telemetry.md"), "## The trace file").find((x) => x[0]!.startsWith(`\`${event}\``))!;
    // A field is a backticked name outside parentheses (those hold values and notes).
    return sorted(matches(row[2]!.replace(/\([^)]*\)/g, ""), /`([a-z_]+)`/g));
  };

  test("the tool.call, provider.request and ask rows list exactly their event types' fields", () => {
    expect(rowFields("tool.call")).toEqual(interfaceFields("src/runtime/tools/trace/tool-trace-event.ts", "ToolCallEvent"));
    expect(rowFields("provider.request")).toEqual(interfaceFields("src/runtime/providers/provider-client.ts", "ProviderRequestEvent"));
    expect(rowFields("ask")).toEqual(interfaceFields("src/runtime/ask/ask-trace.ts", "AskEvent"));
  });

  test("a tool.call the binary writes has exactly the fields the table lists, `step` included without a journal", () => {
    const dir = join(REPO, "examples");
    const r = runLuma([join(dir, "018_direct_tool.luma"), "--trace", "-"], { cwd: dir });
    const events = r.stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    const call = events.find((e) => e.event === "tool.call");
    expect(call).toBeDefined();
    expect(sorted(Object.keys(call!))).toEqual(sorted([...rowFields("tool.call"), "ts", "event"]));
  });
});

describe("§11 docs/stores.md names exactly the crash points of LUMA_TEST_CRASH_AT", () => {
  test("the page's crash points are the CrashPoint type's members", () => {
    const source = read("src/runtime/base/crash-points.ts");
    const union = source.slice(source.indexOf("export type CrashPoint"), source.indexOf(";", source.indexOf("export type CrashPoint")));
    const text = page("docs/stores.md").text;
    const paragraph = text.slice(text.indexOf("LUMA_TEST_CRASH_AT=<point>"), text.indexOf("costs one comparison"));
    expect(sorted(matches(paragraph, /`([a-z]+(?:-[a-z]+)+)`/g))).toEqual(sorted(matches(union, /"([a-z-]+)"/g)));
  });
});

describe("the ops pages name only codes the catalog has", () => {
  const opsPages = docPages().filter((p) => p.path.startsWith("docs/") && !p.path.startsWith("docs/language/") && p.path !== "docs/diagnostics.md");
  const codes = new Set(allCatalogEntries().map((e) => e.code));

  test("every E-code written on an ops page is a catalog code", () => {
    const unknown = opsPages.flatMap((p) => matches(p.text, /\b(E\d{4})\b/g).filter((c) => !codes.has(c)).map((c) => `${p.path}: ${c}`));
    expect(unknown).toEqual([]);
  });

  test("every runtime code in `Error: [CODE]` or a `TOOL_…`/`…_ERROR`/`…_INVALID` span is a catalog code", () => {
    // The wire notes quote the providers' own status names (Gemini's `PERMISSION_DENIED`…), not Luma's.
    const pages = opsPages.filter((p) => p.path !== "docs/providers/wire-formats.md");
    const named = pages.flatMap((p) =>
      [...matches(p.text, /Error: \[([A-Z][A-Z_]+)\]/g), ...matches(p.text, /`([A-Z]+_(?:[A-Z]+_)*(?:ERROR|INVALID|TIMEOUT|DENIED|NOT_FOUND|CONFLICT|OPEN|UNAVAILABLE|EXCEEDED|LIMITED|REFUSED))`/g)]
        .filter((c) => c !== "CODE" && !/^(OTEL|LUMA)_/.test(c) && !codes.has(c))
        .map((c) => `${p.path}: ${c}`),
    );
    expect(sorted(named)).toEqual([]);
  });
});
