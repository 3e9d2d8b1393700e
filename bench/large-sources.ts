/**
 * Issue #12 item 9 figures: `luma check` on generated programs of 1 MB and 5 MB (the
 * bench program of startup-and-parse.ts, scaled up), cold (no cache) — wall time, CPU
 * time and the peak RSS the kernel reports for the child — then the size of the cache
 * entry it writes and the time of the cached check that reads it back. One run each:
 * a cold 5 MB check takes tens of seconds. Targets: 1 MB in ≤ 1 s with ≤ 300 MB RSS,
 * 5 MB without running out of memory. Before them, `check-phases.ts` splits the 1 MB figure
 * into its phases (hash, parse, check, cache write and read).
 */
import { mkdtempSync, readdirSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchCheckPhases } from "./check-phases";
import { generateProgramOfSize as programOf } from "./generate-program";
import { fmt } from "./measure";

const MIB = 1024 * 1024;

function check(luma: string, file: string, env: Record<string, string | undefined>) {
  const t0 = performance.now();
  const r = Bun.spawnSync([luma, "check", file], { env, stdout: "pipe", stderr: "pipe" });
  const wallMs = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`luma check ${file} failed: ${r.stderr.toString()}`);
  const usage = r.resourceUsage;
  return { wallMs, cpuMs: Number(usage?.cpuTime.total ?? 0n) / 1000, rssMib: (usage?.maxRSS ?? 0) / MIB };
}

export async function benchLargeSources(): Promise<void> {
  // The phases in process first: what the cold `luma check` below is made of.
  await benchCheckPhases();
  const luma = resolve("dist/luma");
  if (!existsSync(luma)) throw new Error("dist/luma is missing: run `bun run build` first");
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-large-"));
  for (const mib of [1, 5]) {
    const file = join(dir, `big-${mib}m.luma`);
    const source = programOf(mib * MIB);
    writeFileSync(file, source);
    const cacheHome = join(dir, `cache-${mib}`);
    const env = { ...process.env, LUMA_NO_CACHE: undefined, XDG_CACHE_HOME: cacheHome };
    const cold = check(luma, file, env);
    const entries = readdirSync(join(cacheHome, "luma"));
    const entryMib = entries.reduce((sum, name) => sum + statSync(join(cacheHome, "luma", name)).size, 0) / MIB;
    const cached = check(luma, file, env);
    const sourceMib = Buffer.byteLength(source) / MIB;
    console.log(
      `large source  ${fmt(sourceMib, 2)} MiB  cold ${fmt(cold.wallMs, 0)} ms (cpu ${fmt(cold.cpuMs, 0)} ms) peak RSS ${fmt(cold.rssMib, 0)} MiB` +
        ` · cache entry ${fmt(entryMib, 1)} MiB (${fmt(entryMib / sourceMib, 1)}× source) · cached ${fmt(cached.wallMs, 0)} ms, RSS ${fmt(cached.rssMib, 0)} MiB`,
    );
  }
}

if (import.meta.main) await benchLargeSources();
