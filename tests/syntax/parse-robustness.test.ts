/**
 * Parse time is linear in the input for every input: a table of pathological families
 * × sizes, each of which must end in a program or a diagnostic, never a throw, with work
 * that at most doubles (plus slack) when the input doubles. Work is counted, not timed,
 * for both parsers: the Ohm path is forced, and its memo entries of every match (interpolation
 * segments included) are counted; the fast parser's own work count is added, and so are the
 * characters the lexical pre-scan examines; `parse()` must give the Ohm path's answer. Before
 * the fix, `x = "{{{…` took time doubling with every `{`, and a 20,000-term `a + a + …`
 * overflowed the stack.
 */
import { describe, expect, test } from "bun:test";
import type * as ohm from "ohm-js";
import { fastParse } from "../../src/syntax/fast-parse/fast-program";
import { scanLexical } from "../../src/syntax/lexical-scan";
import { lumaGrammar } from "../../src/syntax/luma-grammar";
import { type ParseResult, parse } from "../../src/syntax/parse";
import { FILE, parseError, parseOk } from "./parse-helpers";

type OhmInternals = { matcher: { _memoTable: ({ memo: object } | undefined)[] } };

function memoEntries(result: ohm.MatchResult): number {
  let entries = 0;
  for (const posInfo of (result as unknown as OhmInternals).matcher._memoTable) {
    if (posInfo) entries += Object.keys(posInfo.memo).length;
  }
  return entries;
}

/** Parses `source`, counting the work done. */
function parseCounted(source: string): { result: ParseResult; work: number } {
  const grammar = lumaGrammar() as ohm.Grammar & { match: ohm.Grammar["match"] };
  const match = grammar.match;
  let work = 0;
  grammar.match = function (this: ohm.Grammar, ...args: Parameters<ohm.Grammar["match"]>) {
    const result = match.apply(this, args);
    work += memoEntries(result);
    return result;
  };
  try {
    const result = parse(source, FILE, { engine: "ohm" });
    const fast = { work: 0 };
    fastParse(source, FILE, fast);
    expect(JSON.stringify(parse(source, FILE))).toBe(JSON.stringify(result));
    return { result, work: work + fast.work + scanLexical(source).steps };
  } finally {
    delete (grammar as { match?: unknown }).match;
  }
}

const rep = (s: string, n: number) => s.repeat(n);

const FAMILIES: [string, (n: number) => string][] = [
  // unterminated strings, interpolations and comments
  ['unterminated string of "{"', (n) => `x = "${rep("{", n)}`],
  ["unterminated string of balanced interpolations", (n) => `x = "${rep("{a}", n)}`],
  ["unterminated interpolation", (n) => `x = "{${rep("a + ", n)}`],
  ["unterminated strings nested in interpolations", (n) => `x = ${rep('"{', n)}`],
  ["unterminated string of escapes", (n) => `x = "${rep("\\{", n)}`],
  ["terminated string of unbalanced {", (n) => `x = "${rep("{", n)}"`],
  ["unterminated block comment of strings", (n) => `/*${rep('"{', n)}`],
  ["code then an unterminated block comment", (n) => `${rep("x = 1\n", n)}/*`],
  // long runs of one punctuation character
  ...["(", ")", "[", "]", "{", "}", '"', ",", ";", "+", "-", "*", "/", ".", ":", "=", "<", "!", "@", "\\", "#", "'"].map(
    (c): [string, (n: number) => string] => [`a run of ${c}`, (n) => rep(c, n)],
  ),
  ...["(", "[", "{", "-", "not ", '"{', "ask "].map((c): [string, (n: number) => string] => [
    `x = then a run of ${c}`,
    (n) => `x = ${rep(c, n)}`,
  ]),
  // deep nesting, closed
  ["nested parentheses", (n) => `x = ${rep("(", n)}1${rep(")", n)}`],
  ["nested arrays", (n) => `x = ${rep("[", n)}1${rep("]", n)}`],
  ["nested objects", (n) => `x = ${rep("{a: ", n)}1${rep("}", n)}`],
  ["nested blocks", (n) => `${rep("if x { ", n)}${rep("}", n)}`],
  ["nested interpolations", (n) => `x = ${rep('"{', n)}1${rep('}"', n)}`],
  ["nested asks", (n) => `x = ${rep("ask ", n)}"p"${rep(" -> T", n)}`],
  ["a postfix chain", (n) => `x = a${rep(".b", n)}`],
  ["a call chain", (n) => `x = f${rep("(1)", n)}`],
  // flat, long
  ["a flat + chain", (n) => `x = ${rep("a + ", n)}a`],
  ["a flat chain of mixed precedence", (n) => `x = ${rep("a * b + c and ", n)}d`],
  ["many statements", (n) => rep("x = f(1, [2], {a: 3})\n", n)],
  ["a long string of interpolations", (n) => `x = "${rep("{a} ", n)}"`],
];

const SIZES = [1000, 2000, 4000];

describe("§1 Parse time is linear in the input for every input", () => {
  test.each(FAMILIES)("%s: a program or a diagnostic, and doubling the input at most doubles the work", (_name, make) => {
    const works: number[] = [];
    for (const size of SIZES) {
      const source = make(size);
      const { result, work } = parseCounted(source);
      if (!result.program) {
        expect(result.diagnostics.length).toBeGreaterThan(0);
        for (const d of result.diagnostics) {
          expect(d.message).not.toMatch(/Internal|stack/);
          expect(d.span?.start).toBeGreaterThanOrEqual(0);
          expect(d.span?.start).toBeLessThanOrEqual(source.length);
        }
      }
      works.push(work);
    }
    for (let i = 1; i < works.length; i++) expect(works[i]).toBeLessThanOrEqual(2.5 * works[i - 1] + 1000);
  }, 60_000);

  test('the 41-byte report: an unterminated string of "{" is one error at its opening quote', () => {
    expect(parseError(`x = "${rep("{", 36)}`)).toMatchObject({ at: "1:5", message: "Unterminated string" });
    // Far past the depth Ohm can recurse to, still the same error.
    expect(parseError(`x = "${rep("{", 20000)}`)).toMatchObject({ at: "1:5", message: "Unterminated string" });
  });

  test("a flat 20,000-term `a + a + …` parses into a left-nested tree", () => {
    const program = parseOk(`x = ${rep("a + ", 19999)}a`);
    const [stmt] = program.body;
    if (stmt.kind !== "Assign") throw new Error(stmt.kind);
    let depth = 0;
    for (let e = stmt.value; e.kind === "Binary"; e = e.left) depth++;
    expect(depth).toBe(19999);
  });
});

describe("§1 Nesting deeper than 100 levels is one error at the place that crosses the limit", () => {
  const at = (source: string, marker: number) => {
    const before = source.slice(0, marker);
    return `${before.split("\n").length}:${marker - before.lastIndexOf("\n")}`;
  };
  test.each([
    ["parentheses", (n: number) => `x = ${rep("(", n)}1${rep(")", n)}`, (n: number) => 4 + n - 1],
    ["arrays", (n: number) => `x = ${rep("[", n)}1${rep("]", n)}`, (n: number) => 4 + n - 1],
    ["objects", (n: number) => `x = ${rep("{a: ", n)}1${rep("}", n)}`, (n: number) => 4 + (n - 1) * 4],
    ["blocks", (n: number) => `${rep("if x {\n", n)}${rep("}\n", n)}`, (n: number) => (n - 1) * 7 + 5],
    ["prefix operators", (n: number) => `x = ${rep("- ", n)}a`, () => 4],
    ["postfix operations", (n: number) => `x = a${rep(".b", n)}`, () => 5],
  ])("%s: 100 levels parse, 101 do not", (_kind, make, marker) => {
    expect(parse(make(100), FILE).program).toBeDefined();
    const source = make(101);
    const error = parseError(source);
    expect(error.message).toBe("Nesting deeper than 100 levels");
    expect(error.at).toBe(at(source, marker(101)));
  });

  test("nesting far past the limit is the same error, at the same place, not a stack overflow", () => {
    for (const [open, close] of [["(", ")"], ["[", "]"], ['"{', '}"']]) {
      const source = `x = ${rep(open, 20000)}1${rep(close, 20000)}`;
      expect(parseError(source)).toMatchObject({ message: "Nesting deeper than 100 levels" });
      expect(parseError(source).offset).toBeLessThan(4 + 101 * open.length);
    }
  });

  test("nesting inside string interpolation counts, and the error points into the string", () => {
    const source = `x = ${rep("(", 60)}"{${rep("[", 60)}1${rep("]", 60)}}"${rep(")", 60)}`;
    const error = parseError(source);
    expect(error.message).toBe("Nesting deeper than 100 levels");
    expect(error.offset).toBeGreaterThan(4 + 60);
  });
});
