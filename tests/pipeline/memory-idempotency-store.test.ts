/** Spec §11 `memory` backend, through the IdempotencyStore contract the other backends will share. */
import { describe, expect, test } from "bun:test";
import { MemoryIdempotencyStore } from "../../src/runtime/tools/stores/memory-idempotency-store";
import { FakeClock } from "./fake-clock";

describe("§11 memory idempotency store", () => {
  test("claim → running for others → done with the stored value", async () => {
    const store = new MemoryIdempotencyStore(new FakeClock());
    expect(store.claim("k", "fp", 1000)).toEqual({ kind: "claimed" });
    const second = store.claim("k", "fp", 1000);
    expect(second.kind).toBe("running");
    let woke = false;
    if (second.kind === "running") second.settled.then(() => (woke = true));
    store.complete("k", "fp", { v: 1 }, 1000);
    await Promise.resolve();
    expect(woke).toBe(true);
    expect(store.claim("k", "fp", 1000)).toEqual({ kind: "done", fingerprint: "fp", value: { v: 1 } });
  });

  test("release drops a running record and wakes its waiters, so the key can be claimed again", async () => {
    const store = new MemoryIdempotencyStore(new FakeClock());
    store.claim("k", "fp", 1000);
    const waiting = store.claim("k", "fp", 1000);
    store.release("k");
    if (waiting.kind === "running") await waiting.settled;
    expect(store.claim("k", "fp", 1000)).toEqual({ kind: "claimed" });
  });

  test("a done record lives ttl ms from completion, by the injected clock", () => {
    const clock = new FakeClock();
    const store = new MemoryIdempotencyStore(clock);
    store.claim("k", "fp", 500);
    clock.advance(100);
    store.complete("k", "fp", 1, 500);
    clock.advance(499);
    expect(store.claim("k", "other", 500).kind).toBe("done");
    clock.advance(1);
    expect(store.claim("k", "other", 500)).toEqual({ kind: "claimed" });
  });

  test("expired records are swept in bulk, so the store does not grow without bound", () => {
    const clock = new FakeClock();
    const store = new MemoryIdempotencyStore(clock);
    for (let i = 0; i < 5000; i++) {
      store.claim(`k${i}`, "fp", 1);
      store.complete(`k${i}`, "fp", i, 1);
      clock.advance(1);
    }
    expect(store.size).toBeLessThanOrEqual(1024);
  });
});
