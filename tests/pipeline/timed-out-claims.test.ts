/**
 * Issue #10 items 2 and 3 through the pipeline, on a fake clock: an idempotent call that
 * times out while its handler still runs keeps its claim until that handler settles (then
 * records its validated output, or releases the key), and a heartbeat renews a claim's
 * lease while its handler runs, stopping when the call settles or the claim is lost.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ClaimRequest, ClaimToken, IdempotencyStore } from "../../src/runtime/stores/idempotency-store";
import { MemoryIdempotencyStore } from "../../src/runtime/stores/memory-idempotency-store";
import { LumaToolError } from "../../src/luma-module";
import { FakeClock } from "./fake-clock";
import { deferred, failure, harness, settle } from "./harness";

const SOURCE = `
schema R { result: float }
tool db_write(request_id: string, value: string) -> R {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  retries: 2
  retry_backoff: "fixed"
  retry_delay: 200
}
agent Quick { tools: [db_write] tool_timeout: 100 }
`;

const INPUT = { request_id: "r-1", value: "v" };

const TIMED_OUT =
  "Tool 'db_write' timed out after 100 ms. Its outcome is unknown: the idempotency key (request_id) stays claimed until the handler settles.";
const OUTCOME_UNKNOWN =
  "Tool 'db_write': outcome unknown: an earlier call with the same idempotency key (request_id) timed out, and its handler was still running when this call had waited 100 ms; the key stays claimed until it settles.";

/** Times out the call `p` on the harness's clock and returns its error. */
const timedOut = async (h: ReturnType<typeof harness>, p: Promise<unknown>) => {
  await settle();
  h.clock.advance(100);
  return failure(p);
};

/** A store that counts renewals and answers them with `held()` (the memory store's answer by default). */
class CountingStore implements IdempotencyStore {
  readonly inner = new MemoryIdempotencyStore(new FakeClock());
  renewals: number[] = [];
  constructor(private readonly held?: () => boolean) {}
  claim = (req: ClaimRequest) => this.inner.claim(req);
  complete = (key: string, token: ClaimToken, value: unknown, ttlMs: number) => this.inner.complete(key, token, value, ttlMs);
  release = (key: string, token: ClaimToken) => this.inner.release(key, token);
  renew = async (key: string, token: ClaimToken, leaseMs: number) => {
    this.renewals.push(leaseMs);
    return this.held ? this.held() : this.inner.renew(key, token);
  };
}

describe("§9 step 10 + 12: a timed-out idempotent call keeps its claim until its handler settles", () => {
  test("TOOL_TIMEOUT says the outcome is unknown; a retry waits, then gets TOOL_IDEMPOTENCY_CONFLICT saying so — never a second run", async () => {
    const gate = deferred<{ result: number }>();
    let runs = 0;
    const h = harness(SOURCE, { handlers: { db_write: () => (runs++, gate.promise) } });
    const first = await timedOut(h, h.callAs("Quick", "db_write", INPUT));
    expect(first.code).toBe("TOOL_TIMEOUT");
    expect(first.retryable).toBe(true);
    expect(first.message).toBe(TIMED_OUT);
    for (let retry = 0; retry < 3; retry++) {
      const again = await timedOut(h, h.callAs("Quick", "db_write", INPUT));
      expect({ code: again.code, retryable: again.retryable, message: again.message }).toEqual({
        code: "TOOL_IDEMPOTENCY_CONFLICT",
        retryable: true,
        message: OUTCOME_UNKNOWN,
      });
    }
    expect(runs).toBe(1);
  });

  test("when the abandoned handler succeeds, its validated output is recorded: a waiter and every later call replay it", async () => {
    const gate = deferred<{ result: number }>();
    let runs = 0;
    const h = harness(SOURCE, { handlers: { db_write: () => (runs++, gate.promise) } });
    await timedOut(h, h.callAs("Quick", "db_write", INPUT));
    const waiter = h.callAs("Quick", "db_write", INPUT);
    await settle();
    gate.resolve({ result: 9 });
    expect(await waiter).toEqual({ result: 9 });
    expect(await h.callAs("Quick", "db_write", INPUT)).toEqual({ result: 9 });
    expect(runs).toBe(1);
  });

  for (const [what, outcome] of [
    ["fails", (g: ReturnType<typeof deferred<unknown>>) => g.reject(new Error("card declined"))],
    ["returns an output its schema rejects", (g: ReturnType<typeof deferred<unknown>>) => g.resolve({ result: "nine" })],
  ] as const) {
    test(`when the abandoned handler ${what}, the claim is released and the key runs again`, async () => {
      const gate = deferred<unknown>();
      let runs = 0;
      const h = harness(SOURCE, { handlers: { db_write: () => (++runs === 1 ? gate.promise : { result: 2 }) } });
      await timedOut(h, h.callAs("Quick", "db_write", INPUT));
      outcome(gate);
      await settle();
      expect(await h.callAs("Quick", "db_write", INPUT)).toEqual({ result: 2 });
      expect(runs).toBe(2);
    });
  }

  test("a timeout during a retry's backoff (the last attempt already failed) releases the claim: the key runs again", async () => {
    let runs = 0;
    const busy = () => Promise.reject(new LumaToolError({ code: "BUSY", message: "busy", retryable: true }));
    const h = harness(SOURCE, { handlers: { db_write: () => (++runs === 1 ? busy() : { result: 1 }) } });
    // The fake clock's backoff wait (retry_delay 200) runs past the 100 ms deadline.
    expect((await failure(h.callAs("Quick", "db_write", INPUT))).message).toBe("Tool 'db_write' timed out after 100 ms.");
    expect(await h.callAs("Quick", "db_write", INPUT)).toEqual({ result: 1 });
    expect(runs).toBe(2);
  });
});

describe("§11 heartbeat: a claim's lease is renewed while its handler runs", () => {
  test("renewed every third of the lease while the handler runs — also after TOOL_TIMEOUT — and no more once it settled", async () => {
    const gate = deferred<{ result: number }>();
    const store = new CountingStore();
    const h = harness(SOURCE, { handlers: { db_write: () => gate.promise }, store });
    const lease = 100 + 10_000; // the call's timeout + the margin
    await timedOut(h, h.callAs("Quick", "db_write", INPUT));
    for (let i = 1; i <= 4; i++) {
      h.clock.advance(lease / 3);
      await settle();
      expect(store.renewals).toEqual(Array(i).fill(lease));
    }
    gate.resolve({ result: 5 });
    await settle();
    h.clock.advance(lease * 3);
    await settle();
    expect(store.renewals.length).toBe(4);
    expect(await h.callAs("Quick", "db_write", INPUT)).toEqual({ result: 5 });
  });

  test("a heartbeat told the claim is lost (taken over) stops renewing", async () => {
    const gate = deferred<{ result: number }>();
    const store = new CountingStore(() => false);
    const h = harness(SOURCE, { handlers: { db_write: () => gate.promise }, store });
    const call = h.callAs("Quick", "db_write", INPUT).catch(() => "timed out");
    for (let i = 0; i < 5; i++) {
      h.clock.advance(10_100 / 3);
      await settle();
    }
    expect(store.renewals.length).toBe(1);
    gate.resolve({ result: 1 });
    expect(await call).toBe("timed out");
  });

  test("a call that finishes before its first beat never renews", async () => {
    const store = new CountingStore();
    const h = harness(SOURCE, { handlers: { db_write: async () => (await settle(), { result: 3 }) }, store });
    expect(await h.callAs("Quick", "db_write", INPUT)).toEqual({ result: 3 });
    h.clock.advance(60_000);
    await settle();
    expect(store.renewals).toEqual([]);
  });
});

describe("§11 heartbeat: never keeps the process alive", () => {
  test("a process whose only pending work is a claim's heartbeat exits on its own (after it has renewed)", async () => {
    const script = `
      import { systemClock } from "./src/runtime/base/clock";
      import { ClaimHeartbeat } from "./src/runtime/tools/steps/claim-heartbeat";
      let renewals = 0;
      const store = { claim() {}, complete() {}, release() {}, renew: () => (++renewals, true) };
      new ClaimHeartbeat(store, systemClock, "k", {}, 30); // renews every 10 ms, never stopped
      // Armed after the first beat's timer, so it fires after it, however loaded the machine.
      setTimeout(() => console.log(renewals > 0 ? "renewed" : "never renewed"), 50);
    `;
    const proc = Bun.spawn(["bun", "-e", script], { cwd: join(import.meta.dir, "../.."), stdout: "pipe", stderr: "pipe" });
    const [out, err] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()];
    // It exits by itself once its one ref'd timer fired (the test's timeout would catch a hang).
    expect({ code: await proc.exited, out, err }).toEqual({ code: 0, out: "renewed\n", err: "" });
  });
});
