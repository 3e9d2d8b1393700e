/**
 * What a file store that cannot be trusted costs at start-up, through `dist/luma`: a program
 * whose `idempotency_store` is a file store, with the store's path made into a symbolic link
 * to /dev/zero, a FIFO, a 1 GiB (sparse) file — each refused, exit 2 — and, for scale, the
 * largest envelope the store reads (just under the 64 MiB cap) and a 1,000-record one, each
 * opened (exit 0). Wall time (median of 3) and the peak RSS of the whole `luma` process
 * (as Bun reports it: the largest of any child so far, hence the order of CASES).
 * Before the bounded read, the /dev/zero link cost 38 s and 16.8 GB and the FIFO blocked
 * start-up for ever (docs/stores.md, Figures).
 *
 * Run alone: `bun bench/store-refusal.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../tests/support/luma-binary";
import { fmt, median } from "./measure";

const MIB = 1024 * 1024;

/** A plain envelope of `n` records shaped like the pipeline's (key, digest, expiry, a small object). */
const envelopeText = (n: number): string => {
  const exp = Date.now() + 3_600_000;
  const rows: string[] = [];
  for (let i = 0; i < n; i++) rows.push(JSON.stringify([`request-${i}`, "x".repeat(43), exp, { id: `request-${i}`, value: `value-request-${i}` }]));
  return `{"format":"luma-idempotency","version":1,"write_id":"0123456789abcdef","encryption":"none","records":[${rows.join(",")}]}`;
};

const CASES: [name: string, exit: number, make: (path: string) => void][] = [
  ["symlink to /dev/zero (refused)", 2, (p) => symlinkSync("/dev/zero", p)],
  ["FIFO (refused)", 2, (p) => Bun.spawnSync(["mkfifo", p])],
  ["1 GiB sparse file (refused)", 2, (p) => (writeFileSync(p, ""), truncateSync(p, 1024 * MIB))],
  ["1,000 records, 125 KB (opened)", 0, (p) => writeFileSync(p, envelopeText(1_000))],
  // Last: the peak RSS Bun reports is the largest of any child so far (getrusage's
  // RUSAGE_CHILDREN), so the cases run from the smallest expected peak to the largest.
  ["470,000 records, 62.6 MB (opened)", 0, (p) => writeFileSync(p, envelopeText(470_000))],
];

export async function benchStoreRefusal(): Promise<void> {
  const bin = ensureBinary();
  console.log("file store at start-up, through dist/luma (median of 3 runs; peak RSS of the luma process)");
  for (const [name, exit, make] of CASES) {
    const dir = mkdtempSync(join(tmpdir(), "luma-bench-refusal-"));
    try {
      writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ idempotency_store: { backend: "file", path: "state/idem.json" } }));
      writeFileSync(join(dir, "main.luma"), 'print("ran")\n');
      mkdirSync(join(dir, "state"));
      make(join(dir, "state/idem.json"));
      const walls: number[] = [];
      let rss = 0;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        const r = Bun.spawnSync([bin, "main.luma"], { cwd: dir, env: { PATH: process.env.PATH, LUMA_NO_CACHE: "1" }, stdout: "pipe", stderr: "pipe", timeout: 120_000 });
        walls.push(performance.now() - t0);
        if (r.exitCode !== exit) throw new Error(`${name}: exit ${r.exitCode}, expected ${exit}: ${r.stderr.toString()}`);
        rss = Math.max(rss, r.resourceUsage?.maxRSS ?? 0);
      }
      console.log(`  ${name.padEnd(36)} ${fmt(median(walls) / 1000, 2).padStart(6)} s  ${fmt(rss / MIB, 0).padStart(5)} MiB`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log();
}

if (import.meta.main) await benchStoreRefusal();
