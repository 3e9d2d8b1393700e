/**
 * Issue #27 §4 figure: a fan-out of 100 sub-agent `ask`s with `limit 8`, against the
 * loopback fake provider answering after a fixed latency, through the real `dist/luma`.
 * Target: the fan-out takes within 15 % of ⌈100/8⌉ × one ask's time — the concurrency adds
 * next to nothing over waiting for the provider 13 times in a row. ⌈100/8⌉ × one ask is
 * measured as such: a program making 13 asks one after another. Both runs are timed the
 * same way, minus the process's start-up (a program making none).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../tests/support/luma-binary";
import { startFakeProvider, type FakeTurn } from "../tests/support/fake-provider/fake-provider";
import { fmt, median } from "./measure";

const LATENCY_MS = 50;
const ITEMS = 100;
const LIMIT = 8;

const program = (body: string) => `
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Summary { text: string }
agent Summarizer {
  model: M
  fn run(doc: string) -> Summary { ask "Summarize {doc}" -> Summary }
}
${body}
`;

const FAN_OUT = program(`docs = []
i = 0
while i < ${ITEMS} {
  docs = docs + ["doc {i}"]
  i = i + 1
}
results = parallel for d in docs limit ${LIMIT} { Summarizer.run(d) }
print(len(results))`);
const ROUNDS = Math.ceil(ITEMS / LIMIT);
const SEQUENTIAL = program(`i = 0
while i < ${ROUNDS} {
  Summarizer.run("doc {i}")
  i = i + 1
}
print(i)`);
const NO_ASK = program(`print("none")`);

export async function benchParallelFanOut(): Promise<void> {
  const bin = ensureBinary();
  const fake = await startFakeProvider();
  fake.recording = false;
  fake.latencyMs = LATENCY_MS;
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-parallel-"));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", OPENAI_API_KEY: "sk-bench", LUMA_BASE_URL_M: fake.baseUrl("openai") };
  const answer: FakeTurn = { json: { text: "short" } };

  /** Wall time of one run of `source` in ms, with `asks` answers scripted. */
  const time = async (source: string, asks: number): Promise<number> => {
    writeFileSync(join(dir, "main.luma"), source);
    fake.script(Array.from({ length: asks }, () => answer));
    const t0 = performance.now();
    const p = Bun.spawn([bin, "main.luma"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
    await p.exited;
    const ms = performance.now() - t0;
    if (p.exitCode !== 0) throw new Error(`parallel bench: run failed (${p.exitCode}): ${out}${err}`);
    return ms;
  };

  try {
    await time(FAN_OUT, ITEMS); // warm-up (the binary's first start)
    const none: number[] = [];
    const sequential: number[] = [];
    const fan: number[] = [];
    for (let round = 0; round < 5; round++) {
      none.push(await time(NO_ASK, 0));
      sequential.push(await time(SEQUENTIAL, ROUNDS));
      fan.push(await time(FAN_OUT, ITEMS));
    }
    const startup = median(none);
    const ideal = median(sequential) - startup;
    const fanMs = median(fan) - startup;
    console.log(`parallel fan-out (issue #27 §4: ${ITEMS} sub-agent asks, limit ${LIMIT}, fake provider latency ${LATENCY_MS} ms, medians of 5 runs of dist/luma)`);
    console.log(`  ${ROUNDS} asks one after another (= ⌈${ITEMS}/${LIMIT}⌉ × one ask)  ${fmt(ideal)} ms   (one ask ${fmt(ideal / ROUNDS)} ms)`);
    console.log(`  fan-out of ${ITEMS}, limit ${LIMIT}                      ${fmt(fanMs)} ms`);
    console.log(`  fan-out / ideal                            ${fmt((fanMs / ideal) * 100)} %   (target ≤ 115 %)\n`);
  } finally {
    fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchParallelFanOut();
