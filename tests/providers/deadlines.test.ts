import { afterAll, describe, expect, test } from "bun:test";
import { program, runAsk } from "../ask/ask-harness";
import { runLuma } from "../support/luma-binary";
import { loggingServer, never, runProgram, tricklingResponse, type Misbehaviour } from "./provider-servers";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const servers: { stop(): void }[] = [];
const serve = (m?: Misbehaviour) => {
  const s = loggingServer(m);
  servers.push(s);
  return s;
};
afterAll(() => servers.forEach((s) => s.stop()));

/** The three ways a provider can hold a request: no answer, headers then a trickle, headers too late. */
const HOSTILE: [string, Misbehaviour][] = [
  ["never answers", () => never()],
  ["sends headers, then trickles the body a byte at a time", () => tricklingResponse(20)],
  ["sends its headers too late", async () => (await Bun.sleep(5_000), new Response("{}", { headers: { "content-type": "application/json" } }))],
];

describe("§5 model key timeout: one provider request's deadline, connect to last byte", () => {
  for (const [what, misbehave] of HOSTILE) {
    test(`a provider that ${what} is cut at the model's timeout, each of the 4 tries, then PROVIDER_ERROR naming the model`, async () => {
      const s = serve(misbehave);
      const r = await runAsk(undefined, program("openai", "", `ask "Rate" -> Answer`, { modelExtra: "timeout: 150" }), { env: { LUMA_BASE_URL_M: s.baseUrl("openai") } });
      expect(r.error?.code).toBe("PROVIDER_ERROR");
      expect(r.error?.retryable).toBe(true);
      expect(r.error?.message).toStartWith(`Model 'M' (provider "openai") did not answer within its 150 ms timeout (model key timeout) (after 4 tries) at `);
      expect(s.requests.length).toBe(4);
      expect(r.sleeps).toEqual([500, 1000, 2000]);
      const events = r.trace.filter((e) => e.event === "provider.request");
      expect(events.map((e) => [e.attempt, e.status, e.outcome])).toEqual([1, 2, 3, 4].map((n) => [n, null, "error"]));
    });
  }

  test("a provider that answers within the timeout is unaffected; so is a timeout past a timer's 2^31 ms range", async () => {
    const s = serve();
    for (const ms of [5000, 99_999_999_999]) {
      const src = program("anthropic", `ask_timeout: ${ms}`, `ask "Rate" -> Answer`, { modelExtra: `timeout: ${ms}` });
      const r = await runAsk(undefined, src, { kind: "anthropic", env: { LUMA_BASE_URL_M: s.baseUrl("anthropic") } });
      expect([ms, r.error?.message]).toEqual([ms, undefined]);
      expect(r.out).toEqual(['{"summary":"ok","score":3}']);
    }
  });

  test("through the binary: a trickling Gemini body is cut at the timeout and tried again; exit 1, no stack trace", async () => {
    const s = serve(() => tricklingResponse(20));
    // Tries of 300 ms, waits of 500 ms then 1 s: the ceiling (kept short for the test) ends it
    // after two cut tries. The second try starts near 800 ms, the second wait would end near
    // 2.1 s: a loaded machine may run up to 700 ms late and the count is still two. (Tries of
    // 100 ms were too short for a starved process's request to reach the server at all.)
    const r = await runProgram("gemini", s.baseUrl("gemini"), { modelExtra: "timeout: 300", agentBody: "ask_timeout: 1500" });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toStartWith(`Error: [PROVIDER_ERROR] Model 'M' (provider "gemini") did not give a final answer within the 1500 ms limit of an ask (agent 'A', key ask_timeout); the last try: no complete answer within `);
    expect(r.stderr).not.toContain("    at ");
    // Without the per-request cut the first try would have trickled on until the ceiling.
    expect(s.requests.length).toBe(2);
  });
});

describe("§6 agent key ask_timeout: a ceiling on the whole ask, retries and waits included", () => {
  test("through the binary: a provider that never answers is given up on at the ceiling, naming the model, the agent and the last failure", async () => {
    const s = serve(() => never());
    // Tries of 400 ms and backoffs of 500 ms, 1 s: the second try starts near 900 ms, and the
    // second wait would end past 2 s. The ceiling leaves that second try its full 400 ms even
    // when a loaded machine starts it 700 ms late (a 1 s ceiling over 200 ms tries did not:
    // 100 ms late, the ceiling cut the try instead and the message named a shorter one).
    const r = await runProgram("anthropic", s.baseUrl("anthropic"), { modelExtra: "timeout: 400", agentBody: "ask_timeout: 2000\n  retries: 5" });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toStartWith(
      `Error: [PROVIDER_ERROR] Model 'M' (provider "anthropic") did not give a final answer within the 2000 ms limit of an ask (agent 'A', key ask_timeout); the last try: no complete answer within 400 ms at `,
    );
    // The ceiling is final: the agent's 5 retries do not start again.
    expect(s.requests.length).toBe(2);
  });

  test("a ceiling shorter than the model's timeout cuts the request itself (not retried)", async () => {
    const s = serve(() => tricklingResponse(20));
    const r = await runAsk(undefined, program("azure", "ask_timeout: 150\n  retries: 2", `ask "Rate" -> Answer`, { modelExtra: "timeout: 60000" }), { kind: "azure", env: { LUMA_BASE_URL_M: s.baseUrl("azure") } });
    expect(r.error?.code).toBe("PROVIDER_ERROR");
    expect(r.error?.retryable).toBe(false);
    expect(r.error?.message).toStartWith(`Model 'M' (provider "azure") did not give a final answer within the 150 ms limit of an ask (agent 'A', key ask_timeout); the last try: no complete answer within `);
    expect(s.requests.length).toBe(1);
    expect(r.sleeps).toEqual([]);
  });

  test("a Retry-After wait that would end past the ceiling fails at once instead of sleeping", async () => {
    const s = serve(() => new Response(JSON.stringify({ error: { message: "slow down" } }), { status: 429, headers: { "retry-after": "30" } }));
    const r = await runAsk(undefined, program("openai", "ask_timeout: 10000", `ask "Rate" -> Answer`), { env: { LUMA_BASE_URL_M: s.baseUrl("openai") } });
    expect(r.error?.message).toStartWith(`Model 'M' (provider "openai") did not give a final answer within the 10000 ms limit of an ask (agent 'A', key ask_timeout); the last try: HTTP 429 at `);
    expect(r.sleeps).toEqual([]);
    expect(s.requests.length).toBe(1);
  });
});

describe("§5/§6 the checker types timeout and ask_timeout", () => {
  test("zero, negative, fractional or text values are startup errors naming the key (exit 2)", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-keys-"));
    const file = join(dir, "main.luma");
    const bad = [`timeout: 0`, `timeout: -5`, `timeout: 1.5`, `timeout: "30s"`];
    for (const [i, entry] of bad.entries()) {
      writeFileSync(file, program("openai", `ask_timeout: ${i % 2 ? '"10m"' : "0"}`, `ask "Rate" -> Answer`, { modelExtra: entry }));
      const r = runLuma(["check", file]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`error[E0220]: Key 'timeout' in model 'M' must be an integer >= 1.`);
      expect(r.stderr).toContain(`error[E0220]: Key 'ask_timeout' in agent 'A' must be an integer >= 1.`);
    }
    writeFileSync(file, program("openai", `ask_timeout: 120000`, `ask "Rate" -> Answer`, { modelExtra: "timeout: 30000" }));
    expect(runLuma(["check", file]).exitCode).toBe(0);
  });
});
