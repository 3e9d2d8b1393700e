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

// ------------------------------------------------------------------------------------
// The pages list exactly what the code has. A reference that names a builtin, a key or a
// keyword the code does not have (or misses one it has) is wrong the day the code moves;
// these tests make that a test failure instead.

const page = (name: string): string => readFileSync(join(DIR, name), "utf8");

/** The cells of a Markdown table row (`\|` inside a cell is a literal bar). */
const cells = (row: string): string[] =>
  row.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));

/** The body rows of the first table whose header row starts with `firstHeader`, after `after`. */
function table(text: string, firstHeader: string, after = ""): string[][] {
  const lines = text.slice(text.indexOf(after)).split("\n");
  const head = lines.findIndex((l) => l.startsWith("|") && cells(l)[0] === firstHeader);
  if (head < 0) throw new Error(`no table with header '${firstHeader}'`);
  const rows: string[][] = [];
  for (let i = head + 2; i < lines.length && lines[i]!.startsWith("|"); i++) rows.push(cells(lines[i]!));
  return rows;
}

/** The `code` spans of a cell, in order. */
const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe("§1 lexical.md — lists exactly the parser's words, operators and escapes", () => {
  const text = page("lexical.md");

  test("'These words are keywords': the list is exactly the grammar's keyword rule", async () => {
    const { KEYWORDS } = await import("../../src/syntax/fast-parse/fast-scanner");
    const block = blocks(text).find((b) => b.lang === "text" && /\bagent\b.*\bwhile\b/s.test(b.code));
    expect(block).toBeDefined();
    const listed = block!.code.split(/\s+/).filter(Boolean);
    expect([...listed].sort()).toEqual([...KEYWORDS].sort());
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

  test("every builtin of src/check/builtins.ts has a row, and no row names anything else", async () => {
    const { BUILTINS } = await import("../../src/check/builtins");
    const { BUILTINS: RUNTIME } = await import("../../src/runtime/interpreter/builtins");
    const names = [...new Set(forms.map((f) => f.name))].sort();
    expect(names).toEqual(Object.keys(BUILTINS).sort());
    expect(names).toEqual(Object.keys(RUNTIME).sort());
  });

  test("each row's argument counts are the builtin's arity (E0242 outside them)", async () => {
    const { BUILTINS } = await import("../../src/check/builtins");
    const shown: Record<string, { min: number; max: number }> = {};
    for (const f of forms) {
      const s = (shown[f.name] ??= { min: Infinity, max: 0 });
      s.min = Math.min(s.min, f.min);
      s.max = Math.max(s.max, f.max);
    }
    expect(shown).toEqual({ ...BUILTINS });
  });
});

describe("§4–§6 the keys tables list exactly the keys of src/check/keys/", () => {
  const cases = [
    ["tools.md", "## Tool options", "tool-keys", "TOOL_KEYS"],
    ["models.md", "## Keys", "model-keys", "MODEL_KEYS"],
    ["agents.md", "## Keys", "agent-keys", "AGENT_KEYS"],
  ] as const;
  for (const [file, heading, module, name] of cases) {
    const rows = table(page(file), "key", heading).filter(([key]) => !key!.startsWith("`needs"));

    test(`${file}: one row per key of ${name}, in the table's order`, async () => {
      const keys = (await import(`../../src/check/keys/${module}`))[name] as Record<string, unknown>;
      expect(rows.map(([key]) => codeSpans(key!)[0])).toEqual(Object.keys(keys));
    });

    test(`${file}: a default the code gives is the default the page shows; a required key says so`, async () => {
      const keys = (await import(`../../src/check/keys/${module}`))[name] as Record<string, { default?: unknown; required?: boolean }>;
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

  test("'provider': the values listed are exactly the providers of src/check/keys/model-keys.ts", async () => {
    const { PROVIDERS } = await import("../../src/check/keys/model-keys");
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

describe("§4 tools.md — the start-up errors it quotes are the binary's", () => {
  const text = page("tools.md");

  test("'Handlers': a tool with no handler stops the run with the quoted E0601 message", () => {
    const quoted = /`(Error: '(\w+)' is not registered in the tool registry\.)` \(E0601\)/.exec(text)!;
    writeFileSync(join(work, "example.luma"), `schema Out { ok: bool }\ntool ${quoted[2]}(to: string) -> Out {}\nprint("ran")\n`);
    expect(runLuma(["check", "example.luma"], { cwd: work }).exitCode).toBe(0);
    const r = runLuma(["example.luma"], { cwd: work });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`${quoted[1]}\n  = code E0601 (luma explain E0601)\n`);
    expect(r.exitCode).toBe(2);
  });

  test("'a tool with needs cannot be cached': reported at start-up with the quoted E0604 message, not by luma check", () => {
    const quoted = /`(Cache cannot be used on a tool that uses needs: )x` \(E0604\)/.exec(text)!;
    writeFileSync(join(work, "example.luma"), 'schema Out { ok: bool }\nschema Db { url: string }\ntool text_stats(text: string) -> Out {\n  cache: true\n  needs db: Db\n}\nprint("ran")\n');
    expect(runLuma(["check", "example.luma"], { cwd: work }).exitCode).toBe(0);
    const r = runLuma(["example.luma"], { cwd: work });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`Error: ${quoted[1]}text_stats\n  = code E0604 (luma explain E0604)\n`);
    expect(r.exitCode).toBe(2);
  });
});

describe("§7 functions.md — 'Expressions': what the table says the operators do, the binary does", () => {
  const text = page("functions.md");
  const run = (source: string) => {
    writeFileSync(join(work, "example.luma"), source);
    return runLuma(["example.luma"], { cwd: work });
  };

  test("'`false`, `null`, `0` and `\"\"` are false; everything else (`[]` and `{}` too) is true' — in `not`, `if`, `while` and `assert`", () => {
    const row = table(text, "form", "## Expressions").find(([f]) => f!.includes("`and`"))!;
    const [falsy, truthy] = row[1]!.split("everything else").map(codeSpans);
    expect(falsy).toEqual(["false", "null", "0", '""']);
    const values = [...falsy!, ...truthy!, "1", '"0"', "-1"];
    // `any`, so the checker leaves the condition to the runtime's truthiness.
    const lines = values.map((v, i) => `v${i}: any = ${v}\nif v${i} { print("${i} true", not v${i}) } else { print("${i} false", not v${i}) }`);
    const r = run(lines.join("\n") + "\n");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(values.map((_, i) => (i < falsy!.length ? `${i} false true\n` : `${i} true false\n`)).join(""));
    expect(run('z: any = 0\nwhile z { print("never") }\nassert z\n').exitCode).toBe(1);
  });

  test("'real division: `7 / 2` is `3.5`', 'deep structural equality (key order ignored; `1 == 1.0`)', 'other mixes are `false`'", () => {
    expect(text).toContain("`7 / 2` is `3.5`");
    expect(text).toContain("key order ignored; `1 == 1.0`");
    const r = run('a: any = 1\nb: any = "b"\nprint(7 / 2, 1 == 1.0, { a: 1, b: [1] } == { b: [1], a: 1 }, a < b, b < a, "a" < "b")\n');
    expect(r.stdout).toBe("3.5 true true false false true\n");
  });

  test("'Division or modulo by zero is `RUNTIME_ERROR`'; '`a.b` … `RUNTIME_ERROR` on `null`' with the message the page quotes", () => {
    const quoted = /\(`(Cannot read field 'b' of null) at app\.luma:4:7`\)/.exec(text)![1]!;
    writeFileSync(join(work, "app.luma"), 'try { x = 1 / 0 } catch e { print(e.code) }\ntry { x = 1 % 0 } catch e { print(e.code) }\na: any = null\nprint(a.b)\n');
    const r = runLuma(["app.luma"], { cwd: work });
    expect(r.stdout).toBe("RUNTIME_ERROR\nRUNTIME_ERROR\n");
    expect(r.stderr.split("\n")[0]).toBe(`Error: [RUNTIME_ERROR] ${quoted} at app.luma:4:7`);
    expect(r.exitCode).toBe(1);
  });
});

describe("testing.md — 'Output, options and exit status' and mock turns, through `luma test`", () => {
  const text = page("testing.md");
  const dir = () => mkdtempSync(join(tmpdir(), "luma-docs-test-"));
  const lumaTest = (cwd: string, ...args: string[]) => runLuma(["test", ...args], { cwd });

  test("the exit statuses the page states: 1 failed / did not load / none ran, 2 unreadable path or junit file, 64 usage, else 0", () => {
    expect(text).toMatch(/exit status is 1 when a test failed, a file did not load[\s\S]*no test ran[\s\S]*2 when a named path cannot be read[\s\S]*64 for a command-line usage error/);
    const d = dir();
    writeFileSync(join(d, "ok.test.luma"), 'test "ok" { assert true }\n');
    expect(lumaTest(d).exitCode).toBe(0);
    expect(lumaTest(d, "--filter", "nothing-matches").exitCode).toBe(1);
    expect(lumaTest(d, "missing.test.luma").exitCode).toBe(2);
    expect(lumaTest(d, "--format", "junit", join(d, "no-such-dir", "r.xml")).exitCode).toBe(2);
    expect(lumaTest(d, "--no-such-option").exitCode).toBe(64);
    writeFileSync(join(d, "bad.test.luma"), 'test "x" {\n  assert (\n}\n');
    const notLoading = lumaTest(d);
    expect(notLoading.stdout).toContain("FAIL bad.test.luma › (the file does not load)");
    expect(notLoading.exitCode).toBe(1);
    const empty = dir();
    expect(lumaTest(empty).exitCode).toBe(1);
  });

  test("'A request past the last scripted turn is a `PROVIDER_ERROR`'; 'a turn left unused is not an error'", () => {
    expect(text).toContain("A request past the last scripted turn is a\n`PROVIDER_ERROR`");
    const d = dir();
    writeFileSync(
      join(d, "m.test.luma"),
      [
        "schema A { n: int }",
        'model M { provider: "openai", name: "m" }',
        'agent X { model: M  retries: 1  fn go() -> A { ask "go" -> A } }',
        'test "past the last turn" {',
        '  mock M [{ text: "not json" }]',
        '  code = "none"',
        "  try { X.go() } catch e { code = e.code }",
        '  assert code == "PROVIDER_ERROR"',
        "}",
        'test "unused turns" {',
        "  mock M [{ answer: { n: 1 } }, { answer: { n: 2 } }]",
        "  assert X.go().n == 1",
        "}",
      ].join("\n") + "\n",
    );
    const r = lumaTest(d);
    expect(r.stdout).toContain("2 passed, 0 failed");
    expect(r.exitCode).toBe(0);
  });
});

test("testing.md: the options table lists exactly the options `luma --help` gives `luma test`", () => {
  const shown = table(page("testing.md"), "option", "## Output, options and exit status").map(([o]) => codeSpans(o!)[0]!.split(" ")[0]);
  const usage = runLuma(["--help"]).stdout.split("\n").find((l) => l.trimStart().startsWith("luma test "))!;
  expect(shown.sort()).toEqual([...usage.matchAll(/\[(--[a-z-]+)/g)].map((m) => m[1]).sort());
});
