/**
 * Issue #26 §2 figures: `stream ask` through the real `dist/luma`, against a loopback
 * server that speaks Chat Completions' event stream.
 *
 * - Time to first byte: from the moment the server writes its first event to the moment
 *   the first byte of the answer is readable on luma's stdout (one clock: this process runs
 *   both the server and the reader). Target: within 1 ms. Measured against the harness's
 *   floor: a bare Bun script (fetch, read, write the text to stdout — no Luma) timed the same
 *   way, runs alternated, so that what the machine itself costs (two processes' wake-ups,
 *   loopback, a pipe) is seen apart from what Luma adds.
 * - Throughput: an answer of TOKENS one-token events sent as fast as the socket takes them;
 *   tokens per second from the first event written to the last byte read. Target: ≥ 50,000.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, median } from "./measure";

const LUMA = join(import.meta.dir, "..", "dist", "luma");
const TOKENS = 100_000;
const RUNS = 5;
const FIRST_BYTE_RUNS = 21;

/** The floor: what any Bun process pays to fetch the stream and put its first text on stdout. */
const FLOOR = `import { writeSync } from "node:fs";
const dec = new TextDecoder();
const res = await fetch(process.env.LUMA_BASE_URL_M + "/chat/completions", { method: "POST", body: "{}" });
const reader = res.body.getReader();
for (;;) {
  const { value, done } = await reader.read();
  if (done) break;
  for (const m of dec.decode(value, { stream: true }).matchAll(/"content":("(?:[^"\\\\]|\\\\.)*")/g)) writeSync(1, JSON.parse(m[1]));
}
`;

const PROGRAM = `model M { provider: "openai"  name: "gpt-5.4-mini" }
agent A {
  model: M
  fn run() -> string { stream ask "Write." -> string }
}
r = A.run()
`;

const enc = new TextEncoder();
const chunk = (text: string) => enc.encode(`data: {"choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}}}]}\n\n`);
const END = enc.encode(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`);

interface Timing {
  ttfbMs: number;
  tokensPerSecond: number;
}

async function once(dir: string, tokens: number, command = [LUMA, join(dir, "main.luma")]): Promise<Timing> {
  let firstWritten = 0;
  let release!: () => void;
  const go = new Promise<void>((r) => (release = r));
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      new Response(
        new ReadableStream({
          async start(c) {
            await go; // the reader is waiting on luma's stdout before the first event goes out
            firstWritten = performance.now();
            c.enqueue(chunk("First "));
            for (let i = 1; i < tokens; i++) c.enqueue(chunk("tok "));
            c.enqueue(END);
            c.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      ),
  });
  try {
    const p = Bun.spawn(command, {
      env: { PATH: process.env.PATH, OPENAI_API_KEY: "sk-bench", LUMA_BASE_URL_M: `http://127.0.0.1:${server.port}/v1` },
      stdout: "pipe",
      stderr: "inherit",
    });
    const reader = p.stdout.getReader();
    // Let luma start and send its request, then release the answer.
    setTimeout(release, 300);
    let first = 0;
    let bytes = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (first === 0) first = performance.now();
      bytes += value.byteLength;
    }
    const last = performance.now();
    if ((await p.exited) !== 0) throw new Error("luma failed");
    if (bytes < tokens * 4) throw new Error(`only ${bytes} bytes of the answer arrived`);
    return { ttfbMs: first - firstWritten, tokensPerSecond: tokens / ((last - firstWritten) / 1000) };
  } finally {
    server.stop(true);
  }
}

export async function benchStreaming(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-stream-"));
  writeFileSync(join(dir, "main.luma"), PROGRAM);
  writeFileSync(join(dir, "floor.ts"), FLOOR);
  const floorCommand = [process.execPath, join(dir, "floor.ts")];
  await once(dir, 10); // warm-up
  await once(dir, 10, floorCommand);
  const ttfb: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < FIRST_BYTE_RUNS; i++) {
    ttfb.push((await once(dir, 10)).ttfbMs);
    floor.push((await once(dir, 10, floorCommand)).ttfbMs);
  }
  const rate: number[] = [];
  for (let i = 0; i < RUNS; i++) rate.push((await once(dir, TOKENS)).tokensPerSecond);
  console.log(`stream ask: Chat Completions events through dist/luma to stdout (first byte: median of ${FIRST_BYTE_RUNS}, alternated with the floor; throughput: median of ${RUNS})`);
  console.log(`  time to first byte on stdout after the first event   ${fmt(median(ttfb), 3)} ms   (target ≤ 1 ms)`);
  console.log(`    the floor: a bare Bun fetch → stdout, same harness    ${fmt(median(floor), 3)} ms   (Luma adds ${fmt(median(ttfb) - median(floor), 3)} ms)`);
  console.log(`  throughput, ${TOKENS.toLocaleString("en")} one-token events            ${Math.round(median(rate)).toLocaleString("en")} tokens/s   (target ≥ 50,000)`);
  console.log("");
}

if (import.meta.main) await benchStreaming();
