/**
 * The fast parser (src/syntax/fast-parse/) against the Ohm path, differentially: for every
 * program of the corpus (repository .luma files, Markdown ```luma blocks, the benchmark's
 * generated programs) and a table of edge cases, it either declines or gives the Ohm path's
 * AST byte for byte (JSON, spans and key order included) — and on every valid corpus
 * program it must not decline (declining is a performance bug). `parse()` as a whole must
 * answer exactly as the Ohm path alone, diagnostics included. Pathological inputs (deep
 * nesting, long chains) are declined where the Ohm path reports an error, never crash it.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { PARSE_CODES } from "../../src/diagnostics/catalog/parse-codes";
import { fastParse } from "../../src/syntax/fast-parse/fast-program";
import { scanLexical } from "../../src/syntax/lexical-scan";
import { misspeltKeyword } from "../../src/syntax/misspelt-keyword";
import { ohmParse } from "../../src/syntax/ohm-parse";
import { parse } from "../../src/syntax/parse";
import { REPO } from "../support/luma-binary";
import { corpus } from "./fast-parse-corpus";
import { FILE } from "./parse-helpers";

const ohm = (source: string) => parse(source, FILE, { engine: "ohm" });
/** The grammar's answer alone (parse() looks for a misspelt keyword before either parser). */
const grammarOnly = (source: string) => ohmParse(source, FILE, scanLexical(source, { lineWords: true }).lineWords ?? []);
const json = (value: unknown) => JSON.stringify(value);

/** Fast parse and Ohm path agree; returns whether the fast parser took the source. */
function agree(source: string): boolean {
  const reference = grammarOnly(source);
  const fast = fastParse(source, FILE);
  if (!reference.program) expect(fast).toBeUndefined();
  else if (fast) expect(json(fast)).toBe(json(reference.program));
  expect(json(parse(source, FILE))).toBe(json(ohm(source)));
  return fast !== undefined;
}

describe("§1 The fast parser gives the Ohm path's AST, or declines and the Ohm path answers", () => {
  test("every valid corpus program is taken, with the Ohm path's AST (spans and key order included)", () => {
    let valid = 0;
    const declined: string[] = [];
    for (const { name, source } of corpus()) {
      const reference = ohm(source);
      if (!reference.program) continue;
      valid++;
      const fast = fastParse(source, FILE);
      if (!fast) declined.push(name);
      else expect(json(fast)).toBe(json(reference.program));
    }
    expect(declined).toEqual([]);
    expect(valid).toBeGreaterThan(100);
  }, 120_000);

  test("every corpus program the Ohm path rejects is declined, and parse() reports the Ohm path's diagnostics", () => {
    let invalid = 0;
    for (const { source } of corpus()) {
      const reference = ohm(source);
      if (reference.program) continue;
      invalid++;
      expect(fastParse(source, FILE)).toBeUndefined();
      expect(json(parse(source, FILE))).toBe(json(reference));
    }
    expect(invalid).toBeGreaterThan(0);
  }, 120_000);

  const EDGE_CASES: string[] = [
    // lexical: BOM, shebang, comments, blanks of every kind
    "\uFEFFx = 1",
    "  \uFEFF#!/usr/bin/env luma\nx = 1",
    "#!luma",
    "",
    "/* a */ // b\n\t\r\n\v\f x = 1 // c",
    "x = 1 /* c */ + /* d */ 2",
    "x = a /b",
    "x = a//b\n+ c",
    // numbers and signs
    "x = -1\ny = - 1\nz = --1\nw = 1 -1\nv = a - -b\nu = 1.5e-3\nt = 1e\ns = 1.x",
    "x = not not a == b and -c * d or e % f",
    // the newline rule
    "f\n(x)\ng\n[0]\nh\n.k",
    "x = a\n  .b\n  .c(1)\n  [2]",
    "return\nx",
    "fn f() { return\n 1 }",
    "fn f() { return /* c */ 1 }",
    "fn f() { return // c\n}",
    // statements
    "x.y.z = 1\nx[0] = 2\nx[i].y = 3\nx: int[] = []\nx = y = z",
    "if a { } else if b { x = 1 } else if c { } else { y = 2 }",
    "if a {} else {}\nif b {}",
    "for x in xs { break; continue }\nwhile true { }",
    "try { a() } catch e { print(e.message) }",
    "x = 1; y = 2;; z = 3",
    // contextual words and keyword prefixes are names
    "test = 1\nreplay = 2\nmock(3)\nassert = 4\nassert\nx",
    "format = 1\nifx = 2\nnotx = 3\norder = android\ntrue_ = nulls\nconstructor = 1\n__proto__ = toString",
    "x = { constructor: 1, __proto__: 2, \"a b\": 3, }",
    // An agent's method listed with its agent's arguments (issue #27 §1), bare or with `when`, spaced or not.
    "agent T(user: U) {\n  tools: [a, Refunds(user).handle, Refunds(user.id, \"x\",).handle when user.ok, B.c when x, Refunds ( user ) . handle, Refunds().handle]\n}",
    // strings and interpolation
    'x = "a{b}c{ d + 1 }e{"{x}"}f\\{g\\}h\\n\\t\\"\\\\"',
    'x = "{ a // c\n}"',
    'x = "{a /* c */}"',
    'x = "😀{"😀"}\ud800"',
    'x = ""',
    // declarations
    'schema S { a: int, b?: string @desc("x") @range(0, 10) @default([1, {a: null, "b": true}]); c: enum["x", "y",][] }',
    "schema D = A | B | C tagged by kind",
    "schema D = A tagged by tool",
    'tool t(a: int, b: float,) -> T[] { retries: 2; needs db: Database, cache: true, needs: 1 }',
    'model M { provider: "openai", name: "gpt", temperature: 0.2, extra: { a: [1, b.c, "{x"] } }',
    "agent A { model: M\n fn run(x: int) -> int { return x }\n fn: 1\n tools: [t] }",
    "fn f(a: int) -> T { }\nfn g() {}",
    'datasource W { url_env: "X" }\nquery q(id: int) -> R[] { source: W, sql: "select" }\ncommand c() -> R { source: W }',
    // expressions that start like declarations
    "tool t(x)\nquery q({})\ncommand c({ a: 1 })",
    'x = ask "p {a}" -> T using tool t\ny = ask ask "q" -> string -> T[]',
    'x = ask "p" -> T\nusing = 1',
    // tests
    'replay "c.jsonl"\ntest "a" { replay "x.jsonl"; mock M [{ text: "hi" }]\n assert x == 1, "msg"\n x = 1 }\ntest "b" {}',
    'test "t" { mock\nM }',
  ];

  test.each(EDGE_CASES)("%j: the Ohm path's answer, and the fast parser takes it if valid", (source) => {
    const taken = agree(source);
    if (ohm(source).program) expect(taken).toBe(true);
  });

  // What the Ohm path answers with a diagnostic while converting: the fast parser declines.
  const DECLINED: string[] = [
    'x = "a { b"',
    'x = "{ 1 + }"',
    'replay "a"\nreplay "b"',
    'test "a" { replay "x"\n replay "y" }',
    'test "{x}" {}',
    'replay "{x}"',
    `x = ${"(".repeat(101)}1${")".repeat(101)}`,
    `x = a${".b".repeat(101)}`,
    `x = ${"- ".repeat(101)}a`,
    `${"if x {\n".repeat(101)}${"}\n".repeat(101)}`,
    `x = ${'"{'.repeat(101)}1${'}"'.repeat(101)}`,
  ];

  test.each(DECLINED)("%j: declined, and parse() reports the Ohm path's error", (source) => {
    expect(fastParse(source, FILE)).toBeUndefined();
    const result = parse(source, FILE);
    expect(result.program).toBeUndefined();
    expect(json(result)).toBe(json(ohm(source)));
  });
});

describe("§1 Nesting and long chains: the limit of 100 levels holds, and the fast parser never recurses per link", () => {
  const rep = (s: string, n: number) => s.repeat(n);
  test.each([
    ["parentheses", (n: number) => `x = ${rep("(", n)}1${rep(")", n)}`],
    ["arrays", (n: number) => `x = ${rep("[", n)}1${rep("]", n)}`],
    ["objects", (n: number) => `x = ${rep("{a: ", n)}1${rep("}", n)}`],
    ["blocks", (n: number) => `${rep("if x {\n", n)}${rep("}\n", n)}`],
    ["prefix operators", (n: number) => `x = ${rep("- ", n)}a`],
    ["postfix operations", (n: number) => `x = a${rep(".b", n)}`],
    ["calls in calls", (n: number) => `x = ${rep("f(", n)}1${rep(")", n)}`],
    ["interpolations", (n: number) => `x = ${rep('"{', n)}1${rep('}"', n)}`],
    ["asks", (n: number) => `x = ${rep("ask ", n)}"p"${rep(" -> T", n)}`],
    ["index targets", (n: number) => `x${rep("[a]", n)} = 1`],
    ["mixed", (n: number) => `x = ${rep("-(a.b[", n)}1${rep("])", n)}`],
  ])("%s: at every depth up to past the limit, the fast parser agrees with the Ohm path", (_kind, make) => {
    for (const n of [1, 10, 33, 49, 50, 51, 99, 100, 101, 102, 150]) agree(make(n));
  });

  test("nesting 20,000 deep is declined without a stack overflow, and parse() reports the nesting error", () => {
    for (const [open, close] of [["(", ")"], ["[", "]"], ['"{', '}"'], ["f(", ")"], ["{a: ", "}"]]) {
      const source = `x = ${rep(open, 20000)}1${rep(close, 20000)}`;
      expect(fastParse(source, FILE)).toBeUndefined();
      expect(parse(source, FILE).diagnostics[0].message).toBe("Nesting deeper than 100 levels");
    }
  });

  test("a config value nested 20,000 deep (which counts no nesting level) is declined, not a crash", () => {
    const source = `model M { a: ${rep("{a: ", 20000)}1${rep("}", 20000)} }`;
    expect(fastParse(source, FILE)).toBeUndefined();
  });

  test("a flat 20,000-term chain, a long chain of mixed precedence and 5,000 statements are taken, read in loops", () => {
    for (const source of [`x = ${rep("a + ", 19999)}a`, `x = ${rep("a * b + c and ", 2000)}d`, rep("x = f(1, [2], {a: 3})\n", 5000)]) {
      expect(agree(source)).toBe(true);
    }
  }, 60_000);

  test("an `else if` chain is taken up to 200 links and declined past them (the Ohm path recurses once per link)", () => {
    const chain = (n: number) => `if a {}${rep(" else if a {}", n)}`;
    expect(agree(chain(199))).toBe(true);
    expect(fastParse(chain(201), FILE)).toBeUndefined();
    expect(json(parse(chain(201), FILE))).toBe(json(ohm(chain(201))));
  });
});

describe("§2 A misspelt declaration keyword is found whichever parser runs", () => {
  const SLIPS = ["shema Answer {", "tol calc(a: int) -> R {", "agnet Worker {", "modle m {", "qurey q(id: int) -> R {", "shema U = A | B tagged by kind"];
  const PLACES: ((line: string) => string)[] = [
    (line) => `${line}\n}`,
    (line) => `x = 1\n  ${line}\n}`,
    (line) => `\uFEFF${line}\n}`,
    (line) => `\uFEFF \t${line}\n}`,
    (line) => `x = 1\r\n${line}\r\n}`,
    (line) => `x = [\n${line}\n]`,
    (line) => `x = "\n${line}\n"`,
    (line) => `/*\n${line}\n*/`,
    (line) => `f(1) // ${line}`,
  ];
  test.each(SLIPS)("%j at the top level, indented, after a BOM, inside brackets, strings and comments", (slip) => {
    for (const place of PLACES) {
      const source = place(slip);
      const { lineWords = [] } = scanLexical(source, { lineWords: true });
      const expected = misspeltKeyword(source, FILE, lineWords);
      const result = parse(source, FILE);
      if (expected) expect(result).toEqual({ diagnostics: [expected] });
      else expect(result.diagnostics.map((d) => d.code)).not.toContain(PARSE_CODES.misspeltKeyword);
      expect(json(result)).toBe(json(ohm(source)));
    }
  });
});

describe("§1 A valid program never loads the Ohm grammar", () => {
  test("after parse() of a valid program ohm-js is not loaded; after a syntax error it is", () => {
    const script = `
      const { parse } = await import(${json(join(REPO, "src/syntax/parse.ts"))});
      const loaded = () => Object.keys(require.cache).some((k) => k.includes("ohm-js"));
      const ok = parse("x = 1\\nprint(x)", "a.luma");
      const before = loaded();
      const bad = parse("x = (", "a.luma");
      console.log(JSON.stringify({ ok: !!ok.program, before, error: bad.diagnostics.length, after: loaded() }));
    `;
    const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: REPO });
    expect(JSON.parse(run.stdout.toString())).toEqual({ ok: true, before: false, error: 1, after: true });
  });
});
