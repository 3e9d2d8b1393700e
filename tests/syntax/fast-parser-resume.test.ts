/**
 * A syntax error in a large file is found fast (issue #12 item 9): where the fast parser
 * stops at a top-level item it cannot read, the Ohm path matches its pieces from the last
 * cut at or before that item instead of from the start — and must report exactly what the
 * full Ohm path (`engine: "ohm"`) reports: message, code, hints and span, byte for byte.
 * Held here on 64 KB+ programs (the benchmark's generator, and corpus programs joined) with
 * errors of many shapes in the first, a middle and the last piece, at a cut and just after
 * one, under random mutation, and for items the fast parser declines though the grammar
 * matches them (nesting past the limit, a second `replay`, an interpolation's error): their
 * diagnostics come from the conversion, which needs every piece, so matching from near them
 * is taken only where it ends in a match failure. That the skip happens is counted, not
 * timed: the characters handed to Ohm's matcher. Through `dist/luma check`, a large file's
 * error prints as the full path's diagnostic renders.
 */
import { describe, expect, test } from "bun:test";
import type * as ohm from "ohm-js";
import { generateProgramOfSize as programOf } from "../../bench/generate-program";
import { renderDiagnostics } from "../../src/diagnostics/render";
import { fastParse } from "../../src/syntax/fast-parse/fast-program";
import { scanLexical } from "../../src/syntax/lexical-scan";
import { lumaGrammar } from "../../src/syntax/luma-grammar";
import { CHUNK_CHARS, chunkStarts, ohmParse } from "../../src/syntax/ohm-parse";
import { type ParseResult, parse } from "../../src/syntax/parse";
import { runLuma } from "../support/luma-binary";
import { corpus } from "./fast-parse-corpus";
import { FILE, programDir } from "./parse-helpers";
import { mutate, random } from "./source-mutations";

const json = (value: unknown) => JSON.stringify(value);
const lineWordsOf = (source: string) => scanLexical(source, { lineWords: true }).lineWords ?? [];
const cutsOf = (source: string) => chunkStarts(source, lineWordsOf(source), CHUNK_CHARS);

/** Runs `fn`, counting the characters Ohm is given to match (interpolation segments included). */
function matched<T>(fn: () => T): { value: T; chars: number } {
  const grammar = lumaGrammar() as ohm.Grammar & { match: ohm.Grammar["match"] };
  const match = grammar.match;
  let chars = 0;
  grammar.match = function (this: ohm.Grammar, ...args: Parameters<ohm.Grammar["match"]>) {
    chars += args[0].length;
    return match.apply(this, args);
  };
  try {
    return { value: fn(), chars };
  } finally {
    delete (grammar as { match?: unknown }).match;
  }
}

/** `parse()` and the full Ohm path on `source`: both answers, and the characters each matched. */
function bothWays(source: string): { answer: ParseResult; full: ParseResult; chars: number; fullChars: number } {
  const full = matched(() => parse(source, FILE, { engine: "ohm" }));
  const answer = matched(() => parse(source, FILE));
  return { answer: answer.value, full: full.value, chars: answer.chars, fullChars: full.chars };
}

/** The offset of the line start nearest after `at`. */
const lineAfter = (source: string, at: number): number => source.indexOf("\n", at) + 1;

/** A large valid program: the benchmark's generator. */
const BENCH = programOf(64 * 1024);

/** Syntax errors at which the fast parser stops: no top-level item reads there. */
const SYNTAX_ERRORS: [string, string][] = [
  ["an unclosed bracket", "x = (1 +\n"],
  ["an operator before a declaration", "x = 1 +\n"],
  ["a field with two types", "schema Broken {\n  a: int int\n}\n"],
  ["a stray closer", "}\n"],
  ["an unterminated string", 'x = "abc\n'],
  ["an unterminated block comment", "/* open\n"],
  ["a declaration never closed", 'tool t(a: int) -> R {\n  side_effects: "none"\n'],
  ["an item running over its cut, then an error", "x = 1 +\ntool t(1)\ny = ]\n"],
  ["a keyword where a name is due", "fn if() -> int {\n  1\n}\n"],
];

/** Where in the program an error is put: a line start in some piece, or at a cut. */
const PLACES: [string, (source: string, cuts: number[]) => number, boolean][] = [
  // [name, offset, whether the full path matched whole pieces before it that the skip spares]
  ["in the first piece", (s) => lineAfter(s, 200), false],
  ["in a middle piece", (s, cuts) => lineAfter(s, (cuts[cuts.length >> 1] + cuts[(cuts.length >> 1) + 1]) >> 1), true],
  ["in the last piece", (s) => lineAfter(s, s.length - 300), true],
  ["right at a cut (the end of the piece before)", (_s, cuts) => cuts[cuts.length >> 1], true],
  ["just after a cut", (s, cuts) => lineAfter(s, cuts[cuts.length >> 1]), true],
];

describe("§1 A syntax error found from near the failing item is the full Ohm path's", () => {
  const cuts = cutsOf(BENCH);

  test("the program is 64 KB+, taken whole by the fast parser, and cut in many pieces", () => {
    expect(BENCH.length).toBeGreaterThanOrEqual(64 * 1024);
    expect(fastParse(BENCH, FILE)).toBeDefined();
    expect(cuts.length).toBeGreaterThan(10);
  });

  for (const [place, offset, spares] of PLACES) {
    const work = spares ? "fewer characters matched" : "as many characters matched";
    test.each(SYNTAX_ERRORS)(`an error ${place}: %s — the same diagnostic, ${work}`, (_name, error) => {
      const at = offset(BENCH, cuts);
      const source = BENCH.slice(0, at) + error + BENCH.slice(at);
      const { answer, full, chars, fullChars } = bothWays(source);
      expect(full.program).toBeUndefined();
      expect(json(answer)).toBe(json(full));
      if (spares) expect(chars).toBeLessThan(fullChars);
      else expect(chars).toBe(fullChars);
    });
  }

  test("a syntax error in the middle matches a piece or two, not the half before it", () => {
    const at = cuts[cuts.length >> 1];
    const { answer, full, chars, fullChars } = bothWays(`${BENCH.slice(0, at)}schema Broken {\n  a: int int\n}\n${BENCH.slice(at)}`);
    expect(json(answer)).toBe(json(full));
    expect(chars).toBeLessThan(3 * CHUNK_CHARS);
    expect(fullChars).toBeGreaterThan(at);
  });
});

/**
 * Items the fast parser declines though the grammar matches them (the conversion reports
 * them): matching from near them is taken only where it ends in a match failure.
 */
const OTHER_DECLINES: [string, string][] = [
  ["nesting past the limit", `x = ${"(".repeat(120)}1${")".repeat(120)}\n`],
  ["an interpolation that does not parse", 'x = "{a b}"\n'],
  ["a test name with an interpolation", 'test "a {x}" {\n}\n'],
  ["a test with two cassettes", 'test "t" {\n  replay "a.json"\n  replay "b.json"\n}\n'],
];

describe("§2 Where the fast parser declines an item the grammar matches, the answer is still the full path's", () => {
  const cuts = cutsOf(BENCH);
  // Item boundaries: a cut in the middle, and a line among the last top-level statements.
  const middle = cuts[cuts.length >> 1];
  const late = BENCH.lastIndexOf("\nf = helper0") + 1;
  const withAt = (pairs: [number, string][]) => {
    let source = BENCH;
    for (const [at, text] of [...pairs].sort((a, b) => b[0] - a[0])) source = source.slice(0, at) + text + source.slice(at);
    return source;
  };

  test.each(OTHER_DECLINES)("%s in a middle piece: its diagnostic, or a later syntax error's, matching fewer characters", (_name, text) => {
    const alone = bothWays(withAt([[middle, text]]));
    expect(alone.full.diagnostics).toHaveLength(1);
    expect(json(alone.answer)).toBe(json(alone.full));
    const later = bothWays(withAt([[middle, text], [late, "x = (1 +\n"]]));
    expect(later.full.diagnostics[0].message).not.toBe(alone.full.diagnostics[0].message);
    expect(json(later.answer)).toBe(json(later.full));
    expect(later.chars).toBeLessThan(later.fullChars);
  });

  test("a file's second `replay` in a later piece than its first: its diagnostic, or a later syntax error's", () => {
    const replays: [number, string][] = [[0, 'replay "a.json"\n'], [middle, 'replay "b.json"\n']];
    const alone = bothWays(withAt(replays));
    expect(alone.full.diagnostics.map((d) => d.message)).toEqual(["a file names one cassette for its tests: this is its second `replay`"]);
    expect(json(alone.answer)).toBe(json(alone.full));
    const later = bothWays(withAt([...replays, [late, "}\n"]]));
    expect(json(later.answer)).toBe(json(later.full));
    expect(later.chars).toBeLessThan(later.fullChars);
  });

  test("matching from a cut is taken only when it ends in a match failure: otherwise every piece is matched", () => {
    // Item starts as the fast parser would give them had it stopped in the middle, for
    // programs that match from there on: a valid one (the pieces from the cut alone would
    // be a program missing its first half), and one whose second `replay` is an error
    // only with the first, in a skipped piece.
    const lineWords = lineWordsOf(BENCH);
    const starts = lineWords.filter((w) => w <= middle);
    const valid = matched(() => ohmParse(BENCH, FILE, lineWords, CHUNK_CHARS, starts));
    expect(json(valid.value)).toBe(json(parse(BENCH, FILE, { engine: "ohm" })));
    expect(valid.chars).toBeGreaterThan(BENCH.length); // the pieces from the cut, then all of them
    const source = withAt([[0, 'replay "a.json"\n'], [middle, 'replay "b.json"\n']]);
    const words = lineWordsOf(source);
    const result = ohmParse(source, FILE, words, CHUNK_CHARS, words.filter((w) => w <= middle + 16));
    expect(result.diagnostics.map((d) => d.message)).toEqual(["a file names one cassette for its tests: this is its second `replay`"]);
    expect(json(result)).toBe(json(parse(source, FILE, { engine: "ohm" })));
  });
});

/** Valid corpus programs joined to 64 KB+: many shapes of item at many cuts. */
function joinedCorpus(): string {
  const parts: string[] = [];
  let size = 0;
  for (const { source } of corpus()) {
    // One file-level `replay` per file: a second is an error of its own.
    if (size >= 80 * 1024 || source.length > 20_000 || /^\s*replay\b/m.test(source)) continue;
    // Joined, each must still read as itself (a shebang line, say, opens only a file).
    const part = source.endsWith("\n") ? source : `${source}\n`;
    if (!fastParse(parts.join("") + part, FILE)) continue;
    parts.push(part);
    size += part.length;
  }
  return parts.join("");
}

const MUTATIONS = 40;

describe("§3 Under mutation, large programs get the full Ohm path's diagnostics", () => {
  test.each([
    ["the benchmark's 64 KB program", () => BENCH, 3],
    ["corpus programs joined to 64 KB+", joinedCorpus, 4],
  ] as [string, () => string, number][])(`${MUTATIONS} mutations of %s: no divergence`, (_name, base, seed) => {
    const program = base();
    expect(program.length).toBeGreaterThanOrEqual(64 * 1024);
    expect(fastParse(program, FILE)).toBeDefined();
    const rnd = random(seed);
    const divergences: string[] = [];
    let rejected = 0;
    let spared = 0;
    for (let k = 0; k < MUTATIONS; k++) {
      const source = mutate(program, rnd);
      const { answer, full, chars, fullChars } = bothWays(source);
      if (!full.program) rejected++;
      if (chars < fullChars) spared++;
      if (json(answer) !== json(full)) divergences.push(source);
    }
    expect(divergences).toEqual([]);
    // The mutations break most programs, and most errors lie past the first piece.
    expect(rejected).toBeGreaterThan(MUTATIONS / 4);
    expect(spared).toBeGreaterThan(MUTATIONS / 8);
  }, 300_000);
});

describe("§4 Through dist/luma check, a large file's syntax error is the full Ohm path's", () => {
  test("a 256 KB program with an error in the middle: exit 2, stderr the full path's diagnostic rendered", () => {
    const program = programOf(256 * 1024);
    const at = lineAfter(program, program.length >> 1);
    const source = `${program.slice(0, at)}x = (1 +\n${program.slice(at)}`;
    const full = parse(source, "app.luma", { engine: "ohm" });
    expect(full.diagnostics).toHaveLength(1);
    const golden = renderDiagnostics(full.diagnostics, { color: false, sourceOf: (f) => (f === "app.luma" ? source : undefined) });
    const r = runLuma(["check", "app.luma"], { cwd: programDir(source) });
    expect(r).toEqual({ exitCode: 2, stdout: "", stderr: `${golden}\n` });
  }, 120_000);
});
