/**
 * The fast parser under mutation: corpus programs with random token-level edits (deleted,
 * duplicated and swapped tokens; inserted separators, newlines, operators, brackets,
 * keywords, quotes, comments, unicode, names found on Object.prototype), with a fixed seed
 * and a fixed number of cases. For each: where the Ohm path rejects, the fast parser
 * declines; where it accepts, the fast parser declines or gives its AST byte for byte; and
 * `parse()` as a whole — which matches from near the item the fast parser stopped at —
 * answers exactly as the Ohm path alone (and its pre-filter for misspelt keywords never
 * skips a line the full check would report). The same holds for programs drawn from a
 * random generator of the grammar's shapes (`random-programs.ts`). Large programs under
 * mutation: fast-parser-resume.test.ts.
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
import { mutate, random } from "./source-mutations";
import { FILE } from "./parse-helpers";

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
