/**
 * The language reference lists exactly what the code has: keywords, operators, escapes,
 * builtins, keys, JSON Schema keywords, codes, providers, consistency messages. A reference
 * that names a builtin, a key or a keyword the code does not have (or misses one it has) is
 * wrong the day the code moves; these tests make that a test failure instead.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { blocks, cells, codeSpans, page, pages, scratchDir, table } from "./language-page-reading";

const work = scratchDir();

describe("§1 lexical.md — lists exactly the parser's words, operators and escapes", () => {
  const text = page("lexical.md");

  test("'These words are keywords': the list is exactly the grammar's keyword rule", async () => {
    const { KEYWORDS } = await import("../../src/syntax/keywords");
    const block = blocks(text).find((b) => b.lang === "text" && /\bagent\b.*\bwhile\b/s.test(b.code));
    expect(block).toBeDefined();
    const listed = block!.code.split(/\s+/).filter(Boolean);
    expect([...listed].sort()).toEqual([...KEYWORDS].sort());
  });

  test("src/syntax/keywords.ts is grammar.ohm's keyword rule, word for word", async () => {
    const { KEYWORDS } = await import("../../src/syntax/keywords");
    const grammar = readFileSync(join(import.meta.dir, "../../grammar.ohm"), "utf8");
    const from = grammar.indexOf("  keyword = ");
    const words = [...grammar.slice(from, grammar.indexOf("~identPart", from)).matchAll(/"([a-z]{2,})"/g)].map((m) => m[1]); // not the ranges ("a".."w")
    expect(words.length).toBeGreaterThan(20);
    expect(words.sort()).toEqual([...KEYWORDS].sort());
  });

  test("'contextual … a variable may still be called `test`': the contextual words and type names are names", () => {
    writeFileSync(join(work, "example.luma"), 'test = 1\nassert = 2\nreplay = 3\nmock = 4\nstring = "s"\nint = 5\nany = 6\nprint(test, assert, replay, mock, string, int, any)\n');
    const r = runLuma(["example.luma"], { cwd: work });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("1 2 3 4 s 5 6\n");
  });

  test("'Operators and precedence': the levels are the parser's", async () => {
    const { BINARY_PRECEDENCE, PREFIX_PRECEDENCE } = await import("../../src/syntax/operator-precedence");
    const shown: Record<string, number> = {};
    for (const [level, ops] of table(text, "level", "## Operators and precedence")) {
      if (ops!.startsWith("postfix")) continue;
      const prefix = ops!.includes("(prefix)");
      for (const op of codeSpans(ops!)) shown[(prefix ? "prefix " : "") + op] = Number(level);
    }
    const code: Record<string, number> = {};
    for (const [op, level] of Object.entries(BINARY_PRECEDENCE)) code[op] = level;
    for (const [op, level] of Object.entries(PREFIX_PRECEDENCE)) code[`prefix ${op}`] = level;
    expect(shown).toEqual(code);
  });

  test("'Escapes: …; any other \\x is a syntax error': the listed escapes are exactly those the binary accepts", () => {
    const sentence = /Escapes: (.*?); any other/s.exec(text)![1]!;
    const escapes = codeSpans(sentence);
    expect(escapes.length).toBe(6);
    const expected: Record<string, string> = { '\\"': '"', "\\\\": "\\", "\\n": "\n", "\\t": "\t", "\\{": "{", "\\}": "}" };
    writeFileSync(join(work, "example.luma"), escapes.map((e) => `print(json("${e}"))`).join("\n") + "\n");
    const r = runLuma(["example.luma"], { cwd: work });
    expect(r.stdout).toBe(escapes.map((e) => JSON.stringify(expected[e]) + "\n").join(""));
    writeFileSync(join(work, "example.luma"), 'print("a\\qb")\n');
    const bad = runLuma(["check", "example.luma"], { cwd: work });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`Expected an escape: ${escapes.slice(0, -1).join(" ")} or ${escapes.at(-1)}`);
  });
});

describe("§7 functions.md — the builtins table is the checker's and the runtime's builtins", () => {
  const rows = table(page("functions.md"), "builtin", "## Builtins");
  /** `range(n)`, `range(a, b)` → each form's name and argument count; `x…` repeats, `d?` is optional. */
  const forms = rows.flatMap(([cell]) =>
    codeSpans(cell!).map((form) => {
      const m = /^(\w+)\((.*)\)$/.exec(form)!;
      const params = m[2]!.split(",").map((p) => p.trim()).filter(Boolean);
      return {
        name: m[1]!,
        min: params.filter((p) => !p.endsWith("?") && !p.endsWith("…")).length + (params.some((p) => p.endsWith("…") && p !== "v…") ? 1 : 0),
        max: params.some((p) => p.endsWith("…")) ? Infinity : params.length,
      };
    }),
  );

  test("every builtin of src/language/builtins.ts has a row, and no row names anything else", async () => {
    const { BUILTINS } = await import("../../src/language/builtins");
    const { BUILTINS: RUNTIME } = await import("../../src/runtime/interpreter/builtins");
    const names = [...new Set(forms.map((f) => f.name))].sort();
    expect(names).toEqual(Object.keys(BUILTINS).sort());
    expect(names).toEqual(Object.keys(RUNTIME).sort());
  });

  test("each row's argument counts are the builtin's arity (E0242 outside them)", async () => {
    const { BUILTINS } = await import("../../src/language/builtins");
    const shown: Record<string, { min: number; max: number }> = {};
    for (const f of forms) {
      const s = (shown[f.name] ??= { min: Infinity, max: 0 });
      s.min = Math.min(s.min, f.min);
      s.max = Math.max(s.max, f.max);
    }
    expect(shown).toEqual(Object.fromEntries(Object.entries(BUILTINS).map(([name, { min, max }]) => [name, { min, max }])));
  });
});

describe("§4–§6 the keys tables list exactly the keys of src/language/keys/", () => {
  const cases = [
    ["tools.md", "## Tool options", "tool-keys", "TOOL_KEYS"],
    ["models.md", "## Keys", "model-keys", "MODEL_KEYS"],
    ["agents.md", "## Keys", "agent-keys", "AGENT_KEYS"],
  ] as const;
  for (const [file, heading, module, name] of cases) {
    const rows = table(page(file), "key", heading).filter(([key]) => !key!.startsWith("`needs"));

    test(`${file}: one row per key of ${name}, in the table's order`, async () => {
      const keys = (await import(`../../src/language/keys/${module}`))[name] as Record<string, unknown>;
      expect(rows.map(([key]) => codeSpans(key!)[0])).toEqual(Object.keys(keys));
    });

    test(`${file}: a default the code gives is the default the page shows; a required key says so`, async () => {
      const keys = (await import(`../../src/language/keys/${module}`))[name] as Record<string, { default?: unknown; required?: boolean }>;
      const header = cells(page(file).split("\n").find((l) => l.startsWith("| key |") && page(file).indexOf(l) > page(file).indexOf(heading))!);
      const col = header.indexOf("default");
      for (const row of rows) {
        const key = codeSpans(row[0]!)[0]!;
        const spec = keys[key]!;
        const cell = row[col]!;
        if (spec.required) expect(`${key}: ${cell}`).toBe(`${key}: required`);
        if (spec.default !== undefined) expect(`${key}: ${codeSpans(cell)[0]}`).toBe(`${key}: ${JSON.stringify(spec.default)}`);
      }
    });
  }
});

describe("§2–§3 types.md and schemas.md — JSON Schema as the compiler writes it", () => {
  const compile = async (source: string) => {
    const { parse } = await import("../../src/syntax/parse");
    const { createSchemaTable } = await import("../../src/schema/schema-table");
    const { toJsonSchema } = await import("../../src/schema/json-schema");
    const table = createSchemaTable(parse(source, "example.luma").program!);
    return (name: string) => toJsonSchema(table.named(name)!) as { properties: Record<string, Record<string, unknown>> };
  };

  test("'The types': each type's JSON Schema is the one the table shows", async () => {
    const rows = table(page("types.md"), "type", "## The types").filter(([t]) => !t!.startsWith("`Name`"));
    const fields = rows.map(([t], i) => `f${i}: ${codeSpans(t!)[0]!.replace("T[]", "int[]")}`);
    const schema = (await compile(`schema S { ${fields.join("\n")} }`))("S");
    rows.forEach(([t, , json], i) => {
      const shown = codeSpans(json!)[0]!.replace(/:T\}$/, ':{"type":"integer"}}');
      expect(`${t}: ${JSON.stringify(schema.properties[`f${i}`])}`).toBe(`${t}: ${shown}`);
    });
  });

  test("'Field annotations': one row per annotation of src/schema/annotations.ts, and its JSON Schema keywords are the compiler's", async () => {
    const { ANNOTATIONS, FORMATS } = await import("../../src/schema/annotations");
    const text = page("schemas.md");
    const rows = table(text, "annotation", "## Field annotations");
    /** `@min(n)` / `@max(n)` → min, max: a row may hold two annotations with one keyword each. */
    const namesOf = (cell: string) => codeSpans(cell).map((c) => /^@(\w+)/.exec(c)![1]!);
    expect(rows.flatMap(([a]) => namesOf(a!)).sort()).toEqual(ANNOTATIONS.map((a) => a.name).sort());
    const sample: Record<string, string> = {
      desc: 's: string @desc("d")', default: 's: int @default(3)', range: "s: int @range(0, 9)", min: "s: int @min(1)",
      max: "s: int @max(1)", length: "s: string @length(1, 9)", pattern: 's: string @pattern("^a")',
      format: 's: string @format("email")', items: "s: int[] @items(1, 2)", severity: 's: int @min(1) @severity("soft")',
    };
    for (const [a, , , json] of rows) {
      const names = namesOf(a!);
      // `minimum` / `maximum` for `@min(n)` / `@max(n)`: one keyword per annotation, in order.
      const spans = json === "—" ? [] : codeSpans(json!);
      const perName = names.length > 1 ? spans.map((k) => [k]) : [spans];
      for (const [i, name] of names.entries()) {
        const field = (await compile(`schema S { ${sample[name]} }`))("S").properties.s!;
        const written = Object.keys(field).filter((k) => k !== "type" && k !== "items" && !(name === "severity" && k === "minimum"));
        expect(`@${name}: ${written.sort().join(", ")}`).toBe(`@${name}: ${[...perName[i]!].sort().join(", ")}`);
      }
    }
    const formatRow = rows.find(([a]) => a!.startsWith("`@format"))!;
    expect(codeSpans(formatRow[2]!)).toEqual([...FORMATS]);
  });
});

describe("the codes the pages name", () => {
  test("types.md 'What each rule means' lists exactly the E03xx codes of the catalog", async () => {
    const { typeCodes } = await import("../../src/diagnostics/catalog/type-codes");
    const rows = table(page("types.md"), "code", "### What each rule means");
    expect(rows.map(([c]) => c).sort()).toEqual(typeCodes.map((e) => e.code).sort());
  });

  test("every E-code and error code a language page names is in the catalog (luma explain knows it)", async () => {
    const { catalogEntry } = await import("../../src/diagnostics/catalog/index");
    const unknown: string[] = [];
    for (const name of pages) {
      const text = page(name);
      const named = new Set([
        ...[...text.matchAll(/\bE0\d{3}\b/g)].map((m) => m[0]),
        ...[...text.matchAll(/\b(?:TOOL|ASK|VALUE|QUERY|COMMAND|RUNTIME|PROVIDER)_[A-Z_]+\b/g)].map((m) => m[0]),
      ]);
      for (const code of named) if (!catalogEntry(code)) unknown.push(`${name}: ${code}`);
    }
    expect(unknown).toEqual([]);
  });
});

describe("§5 models.md — the providers and their defaults are the runtime's", () => {
  const text = page("models.md");

  test("'provider': the values listed are exactly the providers of src/language/keys/model-keys.ts", async () => {
    const { PROVIDERS } = await import("../../src/language/keys/model-keys");
    const row = table(text, "key", "## Keys").find(([k]) => k === "`provider`")!;
    expect(codeSpans(row[1]!).map((v) => JSON.parse(v))).toEqual([...PROVIDERS]);
  });

  test("'Where requests go, and the key': one row per provider, with the runtime's default base URL and key variable", async () => {
    const { PROVIDER_DEFAULTS } = await import("../../src/runtime/providers/resolve-model");
    const rows = table(text, "provider", "## Where requests go");
    const shown = Object.fromEntries(
      rows.map(([p, base, , key]) => [
        codeSpans(p!)[0],
        { baseUrl: /default `([^`]+)`/.exec(base!)?.[1], keyEnv: key!.startsWith("none") ? undefined : codeSpans(key!)[0] },
      ]),
    );
    const code = Object.fromEntries(Object.entries(PROVIDER_DEFAULTS).map(([p, d]) => [p, { baseUrl: d.baseUrl, keyEnv: d.keyEnv }]));
    expect(shown).toEqual(code);
  });
});

describe("§4 tools.md — 'Consistency rules': the messages are exactly the checker's", () => {
  /** A program named `x` that breaks each rule, by its code. */
  const breaking: Record<string, string> = {
    E0225: 'side_effects: "write"  cache: true',
    E0226: 'side_effects: "write"  retries: 1',
    E0227: "idempotent: true",
    E0228: "timeout: 0",
  };
  const rows = table(page("tools.md"), "rule", "## Consistency rules");

  test("the table has one row per rule", () => {
    expect(rows.map(([, code]) => code).sort()).toEqual(Object.keys(breaking).sort());
  });

  for (const [, code, message] of rows) {
    test(`${code}: luma check prints the message the page shows`, () => {
      writeFileSync(join(work, "example.luma"), `schema Out { ok: bool }\ntool x(id: string) -> Out { ${breaking[code!]} }\n`);
      const r = runLuma(["check", "example.luma"], { cwd: work });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`error[${code}]: ${codeSpans(message!)[0]}\n`);
    });
  }
});

