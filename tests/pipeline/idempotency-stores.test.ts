/**
 * Spec §9 step 9 + §11 through the pipeline: the in-flight wait (bounded by the waiter's
 * own timeout), the file store behind the invoker, asynchronous stores (the shape of later
 * network backends) and a store that fails to record.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { systemClock } from "../../src/runtime/base/clock";
import { FileIdempotencyStore } from "../../src/runtime/stores/file/file-idempotency-store";
import type { ClaimRequest, ClaimToken, IdempotencyStore } from "../../src/runtime/stores/idempotency-store";
import { MemoryIdempotencyStore } from "../../src/runtime/stores/memory-idempotency-store";
import { freshDir } from "../stores/support/store-fixture";
import { FakeClock } from "./fake-clock";
import { deferred, failure, harness, settle } from "./harness";

const SOURCE = `
schema R { result: float }
tool db_write(request_id: string, value: string) -> R {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
}
agent Slow { tools: [db_write] tool_timeout: 5000 }
agent Quick { tools: [db_write] tool_timeout: 100 }
`;

const INPUT = { request_id: "r-1", value: "v" };

describe("§9 step 9: waiting for a running twin", () => {
  test("a waiter waits at most its own timeout, then gets TOOL_IDEMPOTENCY_CONFLICT (retryable); the twin is untouched", async () => {
    const gate = deferred<{ result: number }>();
    let runs = 0;
    const h = harness(SOURCE, { handlers: { db_write: () => (runs++, gate.promise) } });
    const owner = h.callAs("Slow", "db_write", INPUT);
    await settle();
    const waiter = h.callAs("Quick", "db_write", INPUT);
    await settle();
    h.clock.advance(99);
    await settle();
    h.clock.advance(1);
    const e = await failure(waiter);
    expect(e.code).toBe("TOOL_IDEMPOTENCY_CONFLICT");
    expect(e.retryable).toBe(true);
    expect(e.message).toBe("Tool 'db_write': a call with the same idempotency key (request_id) was still running after 100 ms.");
    gate.resolve({ result: 1 });
    expect(await owner).toEqual({ result: 1 });
    expect(runs).toBe(1);
    // Once the twin is done, the same key replays.
    expect(await h.callAs("Quick", "db_write", INPUT)).toEqual({ result: 1 });
    expect(runs).toBe(1);
  });

  test("when the running twin fails, the waiter runs the key itself (errors are not stored)", async () => {
    const gate = deferred<{ result: number }>();
    let runs = 0;
    const h = harness(SOURCE, { handlers: { db_write: () => (++runs === 1 ? gate.promise : { result: 2 }) } });
    const owner = failure(h.callAs("Slow", "db_write", INPUT));
    await settle();
    const waiter = h.callAs("Slow", "db_write", INPUT);
    await settle();
    gate.reject(new Error("disk full"));
    expect((await owner).code).toBe("TOOL_HANDLER_ERROR");
    expect(await waiter).toEqual({ result: 2 });
    expect(runs).toBe(2);
  });
});

describe("§11 file store behind the pipeline", () => {
  const fileStore = (dir: string) => FileIdempotencyStore.open({ path: join(dir, "idem.json"), clock: systemClock });

  test("concurrent same-key calls in one process run the handler once; a new invoker (a restart) replays", async () => {
    const dir = freshDir();
    const gate = deferred<{ result: number }>();
    let runs = 0;
    const handlers = { db_write: () => (runs++, gate.promise) };
    const h = harness(SOURCE, { handlers, store: fileStore(dir) });
    const calls = [h.call("db_write", INPUT), h.call("db_write", INPUT), h.call("db_write", INPUT)];
    await settle();
    gate.resolve({ result: 5 });
    expect(await Promise.all(calls)).toEqual([{ result: 5 }, { result: 5 }, { result: 5 }]);
    expect(runs).toBe(1);
    expect(h.events.map((e) => e.idempotent_replay)).toEqual([false, true, true]);

    const restarted = harness(SOURCE, { handlers: { db_write: () => (runs++, { result: 6 }) }, store: fileStore(dir) });
    expect(await restarted.call("db_write", INPUT)).toEqual({ result: 5 });
    expect((await failure(restarted.call("db_write", { ...INPUT, value: "other" }))).code).toBe("TOOL_IDEMPOTENCY_CONFLICT");
    expect(runs).toBe(1);
  });
});

/** The memory store answering with promises: how a network backend looks to the pipeline. */
class AsyncStore implements IdempotencyStore {
  readonly inner = new MemoryIdempotencyStore(new FakeClock());
  claim = async (req: ClaimRequest) => this.inner.claim(req);
  complete = async (key: string, token: ClaimToken, value: unknown, ttlMs: number) => this.inner.complete(key, token, value, ttlMs);
  release = async (key: string, token: ClaimToken) => this.inner.release(key, token);
  renew = async (key: string, token: ClaimToken) => this.inner.renew(key, token);
}

describe("§11 the store contract: asynchronous backends and store failures", () => {
  test("a store that answers with promises gives the same run-once, replay and conflict", async () => {
    let runs = 0;
    const h = harness(SOURCE, { handlers: { db_write: () => (runs++, { result: 3 }) }, store: new AsyncStore() });
    expect(await h.call("db_write", INPUT)).toEqual({ result: 3 });
    expect(await h.call("db_write", INPUT)).toEqual({ result: 3 });
    expect((await failure(h.call("db_write", { ...INPUT, value: "w" }))).code).toBe("TOOL_IDEMPOTENCY_CONFLICT");
    expect(runs).toBe(1);
  });

  test("a failed call releases its claim in an asynchronous store too", async () => {
    let runs = 0;
    const h = harness(SOURCE, {
      handlers: { db_write: () => (++runs === 1 ? Promise.reject(new Error("boom")) : { result: 4 }) },
      store: new AsyncStore(),
    });
    expect((await failure(h.call("db_write", INPUT))).code).toBe("TOOL_HANDLER_ERROR");
    expect(await h.call("db_write", INPUT)).toEqual({ result: 4 });
  });

  test("when the store cannot record the output, the call fails with the store's error and the key is freed", async () => {
    const inner = new MemoryIdempotencyStore(new FakeClock());
    let failWrites = true;
    const flaky: IdempotencyStore = {
      claim: (req) => inner.claim(req),
      complete: (key, token, value, ttl) => {
        if (failWrites) throw new Error("No space left on device");
        inner.complete(key, token, value, ttl);
      },
      release: (key, token) => inner.release(key, token),
      renew: (key, token) => inner.renew(key, token),
    };
    let runs = 0;
    const h = harness(SOURCE, { handlers: { db_write: () => (runs++, { result: 7 }) }, store: flaky });
    const e = await failure(h.call("db_write", INPUT));
    expect(e.message).toBe("No space left on device");
    expect(h.events[0]).toMatchObject({ outcome: "error" });
    failWrites = false;
    expect(await h.call("db_write", INPUT)).toEqual({ result: 7 });
    expect(runs).toBe(2);
  });
});
