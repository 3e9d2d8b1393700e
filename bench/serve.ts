/**
 * Issue #26 §4 figures: `luma serve` under 1,000 concurrent chat streams, through the real
 * `dist/luma serve`, against the fake provider (tests/support/fake-provider: Chat Completions'
 * event stream), all on this machine's cores (the figures in docs/serving.md are from 2).
 *
 * - Memory per open stream: the server's resident memory with 1,000 streams open at once
 *   (the fake holds each answer for HOLD_MS, so all are open together), minus its memory
 *   idle after a warm-up, divided by 1,000.
 * - Added latency, p50 / p99: each chat's time from request to the stream's last byte,
 *   through `luma serve`, minus the same percentile of the same requests sent straight to
 *   the fake (the "fake alone"), both at 1,000 concurrent with no hold.
 * - Throughput: chats completed per second in that 1,000-concurrent round through luma serve.
 * - And one at a time (SEQUENTIAL chats, no concurrency): the added latency of the server's
 *   own path, without the queueing 1,000 concurrent requests on 2 cores add.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeProvider, type FakeProvider } from "../tests/support/fake-provider/fake-provider";
import { fmt } from "./measure";

const LUMA = join(import.meta.dir, "..", "dist", "luma");
const STREAMS = Number(process.env.SERVE_BENCH_STREAMS ?? 1000);
const HOLD_MS = 3000;
const SEQUENTIAL = 200;
const ANSWER = "Order 7 has shipped and arrives on Thursday.";

const PROGRAM = `model M { provider: "openai"  name: "gpt-5.4-mini" }
agent Support {
  model: M
  system: "You help with orders."
}
`;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

/** Sends one request and reads its answer to the end; ms taken. */
async function timed(url: string, body: unknown): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const text = await res.text();
  if (!text.includes("[DONE]")) throw new Error(`the stream did not end: ${text.slice(0, 200)}`);
  return performance.now() - t0;
}

const chatBody = (i: number) => ({ id: `bench-${i}-${crypto.randomUUID()}`, messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "Where is order 7?" }] }] });
const fakeBody = { model: "gpt-5.4-mini", stream: true, messages: [{ role: "system", content: "You help with orders." }, { role: "user", content: "Where is order 7?" }] };

async function round(fake: FakeProvider, send: (i: number) => Promise<number>): Promise<{ times: number[]; wallMs: number }> {
  fake.script(Array.from({ length: STREAMS }, () => ({ text: ANSWER })));
  const t0 = performance.now();
  const times = await Promise.all(Array.from({ length: STREAMS }, (_, i) => send(i)));
  return { times, wallMs: performance.now() - t0 };
}

/** The same requests one at a time. */
async function sequential(fake: FakeProvider, send: (i: number) => Promise<number>): Promise<number[]> {
  fake.script(Array.from({ length: SEQUENTIAL }, () => ({ text: ANSWER })));
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) times.push(await send(i));
  return times;
}

async function startServe(dir: string, fake: FakeProvider) {
  const proc = Bun.spawn([LUMA, "serve", join(dir, "main.luma"), "--http", "127.0.0.1:0"], {
    cwd: dir,
    env: { PATH: process.env.PATH, OPENAI_API_KEY: "sk-bench", LUMA_BASE_URL_M: fake.baseUrl("openai") },
    stdout: "ignore",
    stderr: "pipe",
  });
  const reader = proc.stderr.getReader();
  let err = "";
  while (!/serving (http:\/\/\S+)/.test(err)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`luma serve did not start:\n${err}`);
    err += new TextDecoder().decode(value);
  }
  return { proc, url: /serving (http:\/\/\S+)/.exec(err)![1] };
}

export async function benchServe(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-serve-"));
  writeFileSync(join(dir, "main.luma"), PROGRAM);
  const fake = await startFakeProvider();
  fake.recording = false;
  const { proc, url } = await startServe(dir, fake);
  try {
    const chat = (i: number) => timed(`${url}/chat/Support`, chatBody(i));
    // Warm-up: the first requests compile the paths that every later one takes.
    await round(fake, chat);
    Bun.gc(true);
    await Bun.sleep(500);
    const idleKb = rssKb(proc.pid);

    // 1. Memory: every stream open at once (the fake holds each answer HOLD_MS).
    fake.latencyMs = HOLD_MS;
    let peakKb = idleKb;
    const sampling = setInterval(() => (peakKb = Math.max(peakKb, rssKb(proc.pid))), 50);
    await round(fake, chat);
    clearInterval(sampling);
    fake.latencyMs = 0;

    // 2–3. Latency and throughput: the fake alone, then through luma serve.
    const alone = await round(fake, () => timed(`${fake.url}/v1/chat/completions`, fakeBody));
    const served = await round(fake, chat);
    const aloneOne = await sequential(fake, () => timed(`${fake.url}/v1/chat/completions`, fakeBody));
    const servedOne = await sequential(fake, chat);
    const p = (xs: number[], q: number) => percentile(xs, q);
    console.log(`luma serve, ${STREAMS} concurrent chat streams (fake provider, ${navigator.hardwareConcurrency} cores)`);
    console.log(`  memory per open stream        ${fmt((peakKb - idleKb) / STREAMS)} KB  (idle ${fmt(idleKb / 1024)} MB, ${STREAMS} open ${fmt(peakKb / 1024)} MB)`);
    console.log(`  fake alone p50 / p99          ${fmt(p(alone.times, 50))} / ${fmt(p(alone.times, 99))} ms`);
    console.log(`  through luma serve p50 / p99  ${fmt(p(served.times, 50))} / ${fmt(p(served.times, 99))} ms`);
    console.log(`  added latency p50 / p99       ${fmt(p(served.times, 50) - p(alone.times, 50))} / ${fmt(p(served.times, 99) - p(alone.times, 99))} ms`);
    console.log(`  throughput                    ${fmt(STREAMS / (served.wallMs / 1000), 0)} chats/s  (fake alone ${fmt(STREAMS / (alone.wallMs / 1000), 0)} requests/s)`);
    console.log(`  one at a time: added p50 / p99  ${fmt(p(servedOne, 50) - p(aloneOne, 50), 2)} / ${fmt(p(servedOne, 99) - p(aloneOne, 99), 2)} ms  (fake alone ${fmt(p(aloneOne, 50), 2)} ms, through luma serve ${fmt(p(servedOne, 50), 2)} ms)`);
    await benchJournaled(fake, servedOne, served.wallMs);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    fake.stop();
  }
}

/**
 * The same chats through a server with a SQLite journal: each chat turn is a journal run of
 * its own (a lease taken and released, its model request recorded) — what that costs a turn.
 */
async function benchJournaled(fake: FakeProvider, plainOne: number[], plainWallMs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "luma-bench-serve-journal-"));
  writeFileSync(join(dir, "main.luma"), PROGRAM);
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ journal: { backend: "sqlite", path: "runs.sqlite" } }));
  const { proc, url } = await startServe(dir, fake);
  try {
    const chat = (i: number) => timed(`${url}/chat/Support`, chatBody(i));
    await round(fake, chat);
    const journaled = await round(fake, chat);
    const journaledOne = await sequential(fake, chat);
    const p50 = (xs: number[]) => percentile(xs, 50);
    console.log(`  with a SQLite journal (a run per turn): one at a time +${fmt(p50(journaledOne) - p50(plainOne), 2)} ms p50 over without (${fmt(p50(journaledOne), 2)} ms); ${STREAMS} concurrent ${fmt(STREAMS / (journaled.wallMs / 1000), 0)} chats/s (without ${fmt(STREAMS / (plainWallMs / 1000), 0)})\n`);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

if (import.meta.main) await benchServe();
