/**
 * The cost of a `while` turn: a `while` runs in the asynchronous executor and yields to
 * the event loop once every WHILE_YIELD_EVERY turns (so Ctrl-C stops a busy loop), where a
 * `for` over a pure body runs synchronously. Both loops below do the same arithmetic; the
 * difference per turn is what `while` costs, the yields included. In-process (no spawn).
 */
import { parse } from "../src/syntax/parse";
import { runProgram } from "../src/runtime/interpreter/run-program";
import { WHILE_YIELD_EVERY } from "../src/runtime/interpreter/statement-helpers";
import type { SchemaTable } from "../src/schema/schema-table-types";
import { fmt, median } from "./measure";

const TURNS = 1_000_000;
const noSchemas = {} as SchemaTable;

async function timeProgram(source: string): Promise<number> {
  const program = parse(source, "bench.luma").program!;
  const host = { args: [], schemas: noSchemas, tools: { call: async () => null }, stdout: () => {}, stderr: () => {}, sourceOf: () => undefined };
  const t0 = performance.now();
  await runProgram(program, host);
  return performance.now() - t0;
}

export async function benchWhileLoop(): Promise<void> {
  const whileSrc = `i = 0\nx = 0\nwhile i < ${TURNS} {\n  x = x + 2\n  i = i + 1\n}`;
  // The same work per turn: the add, the count, and the comparison \`while\` makes.
  const forSrc = `j = 0\nx = 0\nfor i in range(${TURNS}) {\n  x = x + 2\n  j = j + 1\n  c = j < ${TURNS}\n}`;
  const runs = 5;
  const w: number[] = [];
  const f: number[] = [];
  for (let r = 0; r <= runs; r++) {
    const tw = await timeProgram(whileSrc);
    const tf = await timeProgram(forSrc);
    if (r > 0) (w.push(tw), f.push(tf));
  }
  const [mw, mf] = [median(w), median(f)];
  console.log(`while loop (${TURNS.toLocaleString("en")} turns, a yield every ${WHILE_YIELD_EVERY})`);
  console.log(`  while: ${fmt(mw)} ms (${fmt((mw * 1e6) / TURNS, 0)} ns/turn) · for over range(): ${fmt(mf)} ms (${fmt((mf * 1e6) / TURNS, 0)} ns/turn)\n`);
}

if (import.meta.main) await benchWhileLoop();
