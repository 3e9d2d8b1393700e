/**
 * Issue #2 figures, in one run:
 *  - start-up of dist/luma on a hello program vs a compiled hello-world binary (cache warm);
 *  - a cold (empty cache) and a cached run of a 500-line realistic program;
 *  - warm parse+check throughput on a generated 10k-line program (in-process).
 */
import { mkdtempSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateProgram } from "./generate-program";
import { fmt, median, timeCommand, timeInterleaved } from "./measure";

export async function benchStartupAndParse(): Promise<void> {
  const luma = resolve("dist/luma");
  if (!existsSync(luma)) throw new Error("dist/luma is missing: run `bun run build` first");
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-"));

  // A compiled hello-world with the same Bun and the same build flags: the floor.
  writeFileSync(join(dir, "hello.ts"), 'console.log("hello");\n');
  const built = await Bun.build({
    entrypoints: [join(dir, "hello.ts")], target: "bun", minify: true, bytecode: true, format: "esm",
    compile: { outfile: join(dir, "hello-bin") },
  });
  if (!built.success) throw new Error("could not build the hello-world binary");

  writeFileSync(join(dir, "hello.luma"), 'print("hello")\n');
  writeFileSync(join(dir, "big.luma"), generateProgram(500));
  const env = { ...process.env, XDG_CACHE_HOME: join(dir, "cache") };

  // In alternation, so a change in the machine's load weighs on both alike.
  const [floor, hello] = timeInterleaved([[join(dir, "hello-bin")], [luma, join(dir, "hello.luma")]], 30, env);
  console.log(`start-up  hello-world binary ${fmt(floor)} ms · luma hello.luma ${fmt(hello)} ms · ratio ${fmt(hello / floor, 2)}× (target ≤ 3×, cache warm)`);

  const coldRuns: number[] = [];
  for (let i = 0; i < 5; i++) {
    const coldEnv = { ...process.env, XDG_CACHE_HOME: join(dir, `cold-${i}`) };
    const t0 = performance.now();
    Bun.spawnSync([luma, join(dir, "big.luma")], { env: coldEnv });
    coldRuns.push(performance.now() - t0);
  }
  const cached = timeCommand([luma, join(dir, "big.luma")], 10, env);
  console.log(`500-line program  cold ${fmt(median(coldRuns))} ms · cached ${fmt(cached)} ms`);

  const { parse } = await import("../src/syntax/parse");
  const { check } = await import("../src/check/index");
  const source = generateProgram(10_000);
  const kib = Buffer.byteLength(source) / 1024;
  for (let i = 0; i < 2; i++) check(parse(source, "big.luma").program!); // warm
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = parse(source, "big.luma");
    check(r.program!);
    times.push(performance.now() - t0);
  }
  const ms = median(times);
  console.log(`parse+check  ${fmt(kib)} KiB (10k lines) in ${fmt(ms)} ms → ${fmt(kib / (ms / 1000), 0)} KiB/s (target ≥ 300 KiB/s)`);
}
