import { describe, expect, test } from "bun:test";
import { fakeProvider, program, runAsk } from "../ask/ask-harness";
import { backoffMs, retryAfterMs, retryDelayMs } from "../../src/runtime/providers/retry-policy";
import { loggingServer, runProgram } from "./provider-servers";

const OK = { json: { summary: "ok", score: 1 } };
const ASK = `ask "Rate" -> Answer`;

describe("§7 provider HTTP errors 408/429/5xx and connection failures: retried up to 3 times, capped exponential backoff, Retry-After honoured", () => {
  test("429 with retry-after (seconds) waits that long, then succeeds", async () => {
    const fake = await fakeProvider();
    fake.script([{ status: 429, headers: { "retry-after": "2" } }, OK]);
    const r = await runAsk(fake, program("openai", "", ASK));
    expect(r.error).toBeUndefined();
    expect(r.sleeps).toEqual([2000]);
    const events = r.trace.filter((e) => e.event === "provider.request");
    expect(events.map((e) => [e.attempt, e.status, e.outcome])).toEqual([[1, 429, "error"], [2, 200, "ok"]]);
  });

  test("retry-after-ms wins over retry-after; an HTTP date is honoured; a hint over 60 s is capped", async () => {
    const fake = await fakeProvider();
    const date = new Date(Date.now() + 30_000).toUTCString();
    fake.script([
      { status: 429, headers: { "retry-after-ms": "150", "retry-after": "9" } },
      { status: 503, headers: { "retry-after": date } },
      { status: 500, headers: { "retry-after": "3600" } },
      OK,
    ]);
    const r = await runAsk(fake, program("openai", "", ASK));
    expect(r.error).toBeUndefined();
    expect(r.sleeps[0]).toBe(150);
    expect(r.sleeps[1]).toBeGreaterThan(25_000);
    expect(r.sleeps[1]).toBeLessThanOrEqual(30_000);
    expect(r.sleeps[2]).toBe(60_000);
  });

  test("without a hint: 500 ms, 1 s, 2 s, then PROVIDER_ERROR (retryable) after 4 tries", async () => {
    const fake = await fakeProvider();
    const down = { status: 502, message: "bad gateway" };
    fake.script([down, down, down, down, OK]);
    const r = await runAsk(fake, program("openai", "", ASK));
    expect(r.sleeps).toEqual([500, 1000, 2000]);
    expect(r.error?.code).toBe("PROVIDER_ERROR");
    expect(r.error?.retryable).toBe(true);
    expect(r.error?.message).toStartWith(`Model 'M' (provider "openai") request failed with HTTP 502: bad gateway (after 4 tries) at `);
    expect(fake.requests.length).toBe(4);
  });

  test("the backoff is exponential and capped at 8 s", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(backoffMs)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  test("408, Anthropic's 529 overloaded_error and Gemini's 503 are retried; Gemini's RetryInfo.retryDelay is honoured", async () => {
    const fake = await fakeProvider();
    fake.script([{ status: 408 }, OK]);
    expect((await runAsk(fake, program("openai", "", ASK))).sleeps).toEqual([500]);
    fake.script([{ status: 529 }, OK]);
    const a = await runAsk(fake, program("anthropic", "", ASK), { kind: "anthropic" });
    expect(a.error).toBeUndefined();
    expect(a.sleeps).toEqual([500]);
    const retryInfo = {
      error: {
        code: 429,
        message: "Resource has been exhausted",
        status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "37s" }],
      },
    };
    fake.script([{ status: 429, body: retryInfo }, { status: 503 }, OK]);
    const g = await runAsk(fake, program("gemini", "", ASK), { kind: "gemini" });
    expect(g.error).toBeUndefined();
    expect(g.sleeps).toEqual([37_000, 1000]);
  });

  test("400/401/403/404/422 are final: not retried", async () => {
    const fake = await fakeProvider();
    for (const status of [400, 401, 403, 404, 422]) {
      fake.script([{ status }, OK]);
      const r = await runAsk(fake, program("openai", "", ASK));
      expect(r.error?.code).toBe("PROVIDER_ERROR");
      expect(r.sleeps).toEqual([]);
      expect(fake.requests.length).toBe(1);
    }
  });

  test("x-should-retry overrides the status rule both ways", async () => {
    const fake = await fakeProvider();
    fake.script([{ status: 503, headers: { "x-should-retry": "false" } }, OK]);
    expect((await runAsk(fake, program("openai", "", ASK))).error?.code).toBe("PROVIDER_ERROR");
    fake.script([{ status: 409, headers: { "x-should-retry": "true" } }, OK]);
    expect((await runAsk(fake, program("openai", "", ASK))).error).toBeUndefined();
  });

  test("a connection failure is retried with backoff, then PROVIDER_ERROR 'could not be reached'", async () => {
    const fake = await fakeProvider();
    const r = await runAsk(fake, program("openai", "", ASK), { noRedirect: true, env: { LUMA_BASE_URL_M: "http://127.0.0.1:9/v1" } });
    expect(r.sleeps).toEqual([500, 1000, 2000]);
    expect(r.error?.code).toBe("PROVIDER_ERROR");
    expect(r.error?.retryable).toBe(true);
    expect(r.error?.message).toStartWith(`Model 'M' (provider "openai") could not be reached at http://127.0.0.1:9: `);
    expect(r.error?.message).toContain("(after 4 tries)");
    expect(r.trace.filter((e) => e.event === "provider.request").map((e) => e.status)).toEqual([null, null, null, null]);
  });

  test("Retry-After parsing: seconds, ms, HTTP date, garbage", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs({ "retry-after": "1.5" }, now)).toBe(1500);
    expect(retryAfterMs({ "retry-after-ms": "20" }, now)).toBe(20);
    expect(retryAfterMs({ "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }, now)).toBe(10_000);
    expect(retryAfterMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(retryAfterMs({}, now)).toBeUndefined();
  });
});

describe("§7 an unusable Retry-After gets the capped exponential backoff, never an immediate retry", () => {
  const UNUSABLE: Record<string, string>[] = [
    { "retry-after": "-5" },
    { "retry-after": "soon" },
    { "retry-after": "0" },
    { "retry-after": "1e9" },
    { "retry-after": new Date(Date.now() - 60_000).toUTCString() },
    { "retry-after-ms": "-100" },
    { "retry-after-ms": "NaN" },
    { "retry-after-ms": "0" },
  ];
  test("negative, non-numeric, zero, exponent and past-date hints each wait 500 ms, 1 s, 2 s", async () => {
    const fake = await fakeProvider();
    for (const headers of UNUSABLE) {
      fake.script([{ status: 429, headers }, { status: 503, headers }, { status: 500, headers }, OK]);
      const r = await runAsk(fake, program("openai", "", ASK));
      expect(r.error).toBeUndefined();
      expect([headers, r.sleeps]).toEqual([headers, [500, 1000, 2000]]);
    }
  });

  test("an unusable retry-after-ms falls back to a usable retry-after; Gemini's retryDelay of 0s gets the backoff", async () => {
    const fake = await fakeProvider();
    fake.script([{ status: 429, headers: { "retry-after-ms": "-1", "retry-after": "3" } }, OK]);
    expect((await runAsk(fake, program("openai", "", ASK))).sleeps).toEqual([3000]);
    const zero = { error: { code: 429, message: "x", status: "RESOURCE_EXHAUSTED", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0s" }] } };
    fake.script([{ status: 429, body: zero }, OK]);
    expect((await runAsk(fake, program("gemini", "", ASK), { kind: "gemini" })).sleeps).toEqual([500]);
  });

  test("parsing: signs, exponents and hex are not numbers; bare numbers are not dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    for (const v of ["-5", "-0.5", "1e3", "0x10", "12", "Infinity"]) {
      const ms = retryAfterMs({ "retry-after": v }, now);
      expect([v, ms === undefined || ms === Number(v) * 1000]).toEqual([v, true]);
      expect([v, retryDelayMs(0, ms)]).toEqual([v, v === "12" ? 12_000 : 500]);
    }
    expect(retryDelayMs(2, Infinity)).toBe(60_000);
    expect(retryDelayMs(1, -1)).toBe(1000);
  });

  // The ceiling is just under the 500 ms backoff, so the first 429 (a local round trip) has
  // most of it to arrive even on a loaded machine; past the ceiling the try would be cut.
  test("through the binary: Retry-After -5 waits the backoff — with a 450 ms ask_timeout the ask stops after one request instead of four", async () => {
    const s = loggingServer(() => new Response('{"error":{"message":"slow down"}}', { status: 429, headers: { "retry-after": "-5" } }));
    try {
      const r = await runProgram("openai", s.baseUrl("openai"), { agentBody: "ask_timeout: 450" });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain("within the 450 ms limit of an ask (agent 'A', key ask_timeout); the last try: HTTP 429 at ");
      expect(s.requests.length).toBe(1);
    } finally {
      s.stop();
    }
  });
});

describe("provider responses Luma refuses", () => {
  test('"responses over a size cap refused" (declared content-length)', async () => {
    const fake = await fakeProvider();
    fake.script([{ rawBody: JSON.stringify({ pad: "x".repeat(5000) }) }]);
    const r = await runAsk(fake, program("openai", "", ASK), { maxResponseBytes: 1000 });
    expect(r.error?.code).toBe("PROVIDER_ERROR");
    expect(r.error?.message).toStartWith(`Model 'M' (provider "openai") sent a response larger than the 1000-byte limit; it was refused`);
    expect(r.sleeps).toEqual([]);
  });

  test("a 200 whose body is not the provider's JSON is PROVIDER_ERROR, not a crash", async () => {
    const fake = await fakeProvider();
    fake.script([{ rawBody: "<html>gateway</html>" }]);
    const r = await runAsk(fake, program("anthropic", "", ASK), { kind: "anthropic" });
    expect(r.error?.code).toBe("PROVIDER_ERROR");
    expect(r.error?.message).toContain("sent a response Luma cannot read: the body is not JSON");
    fake.script([{ rawBody: "{}" }]);
    const g = await runAsk(fake, program("gemini", "", ASK), { kind: "gemini" });
    expect(g.error?.message).toContain("no candidates in the response");
  });
});
