/** Small timing helpers shared by the benchmark scripts (benchmarks only; never in tests). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median wall time in ms of running a command `runs` times (after one warm-up run). */
export function timeCommand(cmd: string[], runs: number, env: Record<string, string | undefined> = process.env): number {
  const once = () => {
    const t0 = performance.now();
    const r = Bun.spawnSync(cmd, { env, stdout: "pipe", stderr: "pipe" });
    const dt = performance.now() - t0;
    if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString()}`);
    return dt;
  };
  once();
  return median(Array.from({ length: runs }, once));
}

/**
 * Median wall times of several commands run in alternation (after one warm-up each), so a
 * change in machine load during the measurement weighs on all of them alike.
 */
export function timeInterleaved(cmds: string[][], runs: number, env: Record<string, string | undefined> = process.env): number[] {
  const times = cmds.map(() => [] as number[]);
  for (let round = -1; round < runs; round++) {
    cmds.forEach((cmd, i) => {
      const t0 = performance.now();
      const r = Bun.spawnSync(cmd, { env, stdout: "pipe", stderr: "pipe" });
      const dt = performance.now() - t0;
      if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString()}`);
      if (round >= 0) times[i].push(dt);
    });
  }
  return times.map(median);
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
