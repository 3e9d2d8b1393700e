/**
 * The fast parser under mutation: corpus programs with random token-level edits (deleted,
 * duplicated and swapped tokens; inserted separators, newlines, operators, brackets,
 * keywords, quotes, comments, unicode, names found on Object.prototype), with a fixed seed
 * and a fixed number of cases. For each: where the Ohm path rejects, the fast parser
 * declines; where it accepts, the fast parser declines or gives its AST byte for byte; and
 * `parse()` as a whole answers exactly as the Ohm path alone (and its pre-filter for misspelt
 * keywords never skips a line the full check would report). The same holds for programs
 * drawn from a random generator of the grammar's shapes (`random-programs.ts`).
 */
import { describe, expect, test } from "bun:test";
import { PARSE_CODES } from "../../src/diagnostics/catalog/parse-codes";
import { fastParse } from "../../src/syntax/fast-parse/fast-program";
import { scanLexical } from "../../src/syntax/lexical-scan";
import { mayHaveMisspeltKeyword, misspeltKeyword } from "../../src/syntax/misspelt-keyword";
import { ohmParse } from "../../src/syntax/ohm-parse";
import { parse } from "../../src/syntax/parse";
import { corpus } from "./fast-parse-corpus";
import { randomProgram } from "./random-programs";
import { FILE } from "./parse-helpers";

const TOKEN = /\s+|\/\/[^\n]*|"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|-?\d+(?:\.\d+)?|->|==|!=|<=|>=|[^\sA-Za-z0-9_]/g;

const INSERTS = [
  ";", "\n", " ", "+", "-", "*", "/", "==", "<", "->", "(", ")", "[", "]", "{", "}", ",", ":", ".", "=", "?", "@",
  '"', "\\", "#", "//", "/*", "*/", "{x}", '"{"', "\\{", "\\n", '"a{"b"}c"', "{a: 1}", "[1, 2,]", "f(x)", ".b", "[0]",
  "- -", "not not", "if", "else", "for", "in", "return", "not", "and", "or", "ask", "tool", "fn", "schema", "agent",
  "model", "query", "test", "replay", "mock", "assert", "true", "null", "using", "tagged", "by", "needs", "try",
  "catch", "break", "enum", "int", "string[]", "x", "1", "-1", "1e5", "1.", "é", "😀", "\t", "\r\n", "\uFEFF", "\v",
  "\f", "\u00a0", "\u2028", "#!", "constructor", "__proto__", "toString", "shema X", "tol t", "agnet A", "qurey q",
];
/** Edits that usually keep a program valid: they move spans and test the newline rule. */
const BLANKS = [" ", "\n", "\t", "/* c */", "// c\n", ";", "\r\n", "  \n\n"];

/** A deterministic generator (a linear congruential one: the cases are the same every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function mutate(source: string, rnd: () => number): string {
  const tokens = source.match(TOKEN) ?? [];
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  for (let edits = 1 + Math.floor(rnd() * 3); edits > 0; edits--) {
    const i = Math.floor(rnd() * tokens.length);
    const r = rnd();
    if (r < 0.25) tokens.splice(i, 1);
    else if (r < 0.4) tokens.splice(i, 0, tokens[i] ?? "");
    else if (r < 0.55) {
      const j = Math.floor(rnd() * tokens.length);
      [tokens[i], tokens[j]] = [tokens[j], tokens[i]];
    } else tokens.splice(i, 0, pick(r < 0.8 ? INSERTS : BLANKS));
  }
  return tokens.join("");
}

const CASES = 2000;

const grammarOnly = (source: string) => ohmParse(source, FILE, scanLexical(source, { lineWords: true }).lineWords ?? []);

/** Holds `sources` to the rule; returns how many the grammar rejected, the fast parser took, or declined. */
function differential(sources: Iterable<string>): { rejected: number; taken: number; declined: number } {
  const counts = { rejected: 0, taken: 0, declined: 0 };
  const divergences: string[] = [];
  for (const source of sources) {
    const answer = parse(source, FILE, { engine: "ohm" });
    // The grammar's own answer: parse() looks for a misspelt keyword before either parser.
    const reference = answer.diagnostics[0]?.code === PARSE_CODES.misspeltKeyword ? grammarOnly(source) : answer;
    const fast = fastParse(source, FILE);
    if (!reference.program) counts.rejected++;
    else if (fast) counts.taken++;
    else counts.declined++;
    const sameAst = !fast || (reference.program !== undefined && JSON.stringify(fast) === JSON.stringify(reference.program));
    const sameAnswer = JSON.stringify(parse(source, FILE)) === JSON.stringify(answer);
    // parse() skips the lexical scan when no line has a misspelling's shape: never wrongly.
    const lineWords = scanLexical(source, { lineWords: true }).lineWords ?? [];
    const prefilterHolds = mayHaveMisspeltKeyword(source) || misspeltKeyword(source, FILE, lineWords) === undefined;
    if (!sameAst || !sameAnswer || !prefilterHolds) divergences.push(source);
  }
  expect(divergences).toEqual([]);
  return counts;
}

describe("§1 Under mutation the fast parser declines or agrees with the Ohm path", () => {
  test(`${CASES} mutated corpus programs (seed 1): no divergence`, () => {
    const programs = corpus().filter((f) => f.source.length < 20_000 && parse(f.source, FILE, { engine: "ohm" }).program);
    const rnd = random(1);
    const sources = Array.from({ length: CASES }, () => mutate(programs[Math.floor(rnd() * programs.length)].source, rnd));
    const counts = differential(sources);
    // The mutations reach both sides: many programs stay valid, many do not.
    expect(counts.taken).toBeGreaterThan(CASES / 10);
    expect(counts.rejected).toBeGreaterThan(CASES / 10);
  }, 300_000);

  test(`${CASES} generated programs (seed 2): no divergence, and every valid one is taken`, () => {
    const rnd = random(2);
    const counts = differential(Array.from({ length: CASES }, () => randomProgram(rnd)));
    expect(counts.declined).toBe(0);
    expect(counts.taken).toBeGreaterThan(CASES / 4);
  }, 300_000);
});
