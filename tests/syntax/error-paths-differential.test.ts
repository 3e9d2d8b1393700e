/**
 * The two error paths that no longer hand the whole input to Ohm (hardening round 3, item
 * 12) give exactly what the full Ohm path gives — same diagnostics, messages, codes and
 * positions — on the corpus with mutations:
 *
 * - a string or block comment left open ends what Ohm matches (`ohm-parse.ts`);
 * - a lone `{` in a string is reported by the fast parser (`fast-program.ts`).
 *
 * The reference is `ohmParse` without the lexical scan: every piece matched to the end of
 * the file, as before. The binary tests (`parser-memory-binary.test.ts`) pin the memory.
 */
import { describe, expect, test } from "bun:test";
import { scanLexical } from "../../src/syntax/lexical-scan";
import { ohmParse } from "../../src/syntax/ohm-parse";
import { parse } from "../../src/syntax/parse";
import { corpus } from "./fast-parse-corpus";

const FILE = "t.luma";
const files = corpus().filter((f) => f.source.length < 60_000);

/** A small deterministic generator: the same mutations on every run. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}

const fullOhm = (source: string) => ohmParse(source, FILE, scanLexical(source, { lineWords: true }).lineWords ?? []);
const answer = (r: { program?: unknown; diagnostics: unknown[] }) => JSON.stringify({ program: r.program !== undefined, diagnostics: r.diagnostics });

describe("§1 Error paths that skip Ohm answer as the full Ohm path does", () => {
  test("a \" or /* inserted anywhere in the corpus: where it runs to the end, the same diagnostic", () => {
    const pick = random(7);
    const openers = ['"', "/*", '"{', '"\\', " /* ", '("', 'x = "', '\n"', '{"'];
    let compared = 0;
    for (const f of files) {
      for (let k = 0; k < 8; k++) {
        const at = pick(f.source.length + 1);
        const source = f.source.slice(0, at) + openers[pick(openers.length)] + f.source.slice(at);
        if (!scanLexical(source).unterminated) continue;
        compared++;
        expect({ name: f.name, at, answer: answer(parse(source, FILE)) }).toEqual({ name: f.name, at, answer: answer(fullOhm(source)) });
      }
    }
    expect(compared).toBeGreaterThan(300);
  }, 120_000);

  test("lone { inserted into the corpus's strings: the same E0107 diagnostics, in the same order", () => {
    const pick = random(4242);
    const inserts = ["{", "{ ", "x{", "{\\}", "{{", "{(", '{"a"'];
    let lone = 0;
    for (const f of files) {
      const quotes = [...f.source.matchAll(/"/g)].map((m) => m.index as number);
      if (quotes.length === 0) continue;
      for (let k = 0; k < 6; k++) {
        let source = f.source;
        for (let j = 1 + pick(3); j > 0; j--) {
          const at = quotes[pick(quotes.length)] + 1;
          source = source.slice(0, at) + inserts[pick(inserts.length)] + source.slice(at);
        }
        const fast = parse(source, FILE);
        if (fast.diagnostics.some((d) => d.code === "E0107")) lone++;
        expect({ name: f.name, answer: answer(fast) }).toEqual({ name: f.name, answer: answer(fullOhm(source)) });
      }
    }
    expect(lone).toBeGreaterThan(100);
  }, 120_000);
});
