/**
 * Issue #13 figures: start-up of a hello program built with `luma build` vs `dist/luma
 * hello.luma` (cache warm), in the same run, plus the build time and the built file's size.
 * Target: the built agent within 1.2× of dist/luma.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fmt, timeInterleaved } from "./measure";

export async function benchBuiltAgent(): Promise<void> {
  const luma = resolve("dist/luma");
  if (!existsSync(luma)) throw new Error("dist/luma is missing: run `bun run build` first");
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-build-"));
  try {
    writeFileSync(join(dir, "hello.luma"), 'print("hello")\n');
    const agent = join(dir, "hello-agent");
    const t0 = performance.now();
    const build = Bun.spawnSync([luma, "build", join(dir, "hello.luma"), "-o", agent], { cwd: dir, stderr: "pipe" });
    const buildMs = performance.now() - t0;
    if (build.exitCode !== 0) throw new Error(`luma build failed: ${build.stderr.toString()}`);

    const env = { ...process.env, XDG_CACHE_HOME: join(dir, "cache") };
    const [direct, built] = timeInterleaved([[luma, join(dir, "hello.luma")], [agent]], 30, env);
    const mib = statSync(agent).size / 2 ** 20;
    console.log(
      `luma build  hello agent ${fmt(built)} ms · luma hello.luma ${fmt(direct)} ms · ratio ${fmt(built / direct, 2)}× (target ≤ 1.2×, cache warm)` +
        ` · build ${fmt(buildMs, 0)} ms · file ${fmt(mib, 1)} MiB (dist/luma ${fmt(statSync(luma).size / 2 ** 20, 1)} MiB)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
