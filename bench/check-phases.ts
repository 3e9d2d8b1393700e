/**
 * Where a cold `luma check` of the 1 MB bench program spends its time, phase by phase, in
 * process (issue #12 item 9: the whole check in ≤ 1 s; `check()` alone ≤ 200 ms cold):
 * the cache key (a hash of the source), the parse, the checker's first run (cold: what a
 * CLI run pays) and a second one (warm: what the editor pays per edit), and the cache
 * entry's write (serialise + gzip) and read (gunzip + parse).
 *
 * "Cold" means first in a fresh process, so each sample is a child process running every
 * phase once; the figures are medians over SAMPLES children.
 */
import { resolve } from "node:path";
import { generateProgramOfSize } from "./generate-program";
import { fmt, median } from "./measure";

const SAMPLES = 3;
const MIB = 1024 * 1024;

type Phases = Record<"hash" | "parse" | "checkCold" | "checkWarm" | "write" | "read", number> & { entryMib: number };

async function phasesOnce(): Promise<Phases> {
  const { parse } = await import("../src/syntax/parse");
  const { check } = await import("../src/check/index");
  const { cacheKey, decodeEntry, encodeEntry } = await import("../src/load/checked-program-cache");
  const source = generateProgramOfSize(MIB);
  const time = <T>(f: () => T): [T, number] => {
    const t0 = performance.now();
    const out = f();
    return [out, performance.now() - t0];
  };
  const [, hash] = time(() => cacheKey("big.luma", source));
  const [parsed, parseMs] = time(() => parse(source, "big.luma"));
  const program = parsed.program;
  if (!program) throw new Error("the bench program does not parse");
  const [cold, checkCold] = time(() => check(program));
  if (cold.length > 0) throw new Error(`the bench program has diagnostics: ${cold[0].message}`);
  const [, checkWarm] = time(() => check(program));
  const [entry, write] = time(() => encodeEntry({ format: 0, version: "bench", program }));
  const bytes = typeof entry === "string" ? new TextEncoder().encode(entry) : entry;
  const [, read] = time(() => decodeEntry(bytes));
  return { hash, parse: parseMs, checkCold, checkWarm, write, read, entryMib: bytes.length / MIB };
}

export async function benchCheckPhases(): Promise<void> {
  const samples: Phases[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const r = Bun.spawnSync([process.execPath, resolve(import.meta.dir, "check-phases.ts"), "--child"], { stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`check-phases child failed: ${r.stderr.toString()}`);
    samples.push(JSON.parse(r.stdout.toString()) as Phases);
  }
  const m = (k: keyof Phases) => median(samples.map((s) => s[k]));
  console.log(
    `check phases  1 MiB in process (median of ${SAMPLES} fresh processes): hash ${fmt(m("hash"))} ms · parse ${fmt(m("parse"), 0)} ms` +
      ` · check() cold ${fmt(m("checkCold"), 0)} ms, warm ${fmt(m("checkWarm"), 0)} ms (target ≤ 200 ms cold)` +
      ` · cache write ${fmt(m("write"), 0)} ms, read ${fmt(m("read"), 0)} ms (entry ${fmt(m("entryMib"), 1)} MiB)`,
  );
}

if (import.meta.main) {
  if (process.argv.includes("--child")) console.log(JSON.stringify(await phasesOnce()));
  else await benchCheckPhases();
}
