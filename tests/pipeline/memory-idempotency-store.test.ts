/** Spec §11 `memory` backend, through the IdempotencyStore contract the other backends share. */
import { describe, expect, test } from "bun:test";
import { MemoryIdempotencyStore } from "../../src/runtime/stores/memory-idempotency-store";
import type { ClaimResult } from "../../src/runtime/stores/idempotency-store";
import { FakeClock } from "./fake-clock";

const req = (key: string, fingerprint = "fp", ttlMs = 1000) => ({ key, fingerprint, ttlMs, leaseMs: 5000 });
const tokenOf = (c: ClaimResult) => {
  if (c.kind !== "claimed") throw new Error(`expected a claim, got ${c.kind}`);
  return c.token;
};

describe("§11 memory idempotency store", () => {
  test("claim → running for others → done with the stored value", async () => {
    const store = new MemoryIdempotencyStore(new FakeClock());
    const token = tokenOf(store.claim(req("k")));
    const second = store.claim(req("k"));
    expect(second.kind).toBe("running");
    let woke = false;
    if (second.kind === "running") second.settled.then(() => (woke = true));
    store.complete("k", token, { v: 1 }, 1000);
    await Promise.resolve();
    expect(woke).toBe(true);
    expect(store.claim(req("k"))).toEqual({ kind: "done", value: { v: 1 } });
  });

  test("another fingerprint is a conflict, whether the record is running or done", () => {
    const store = new MemoryIdempotencyStore(new FakeClock());
    const token = tokenOf(store.claim(req("k")));
    expect(store.claim(req("k", "other"))).toEqual({ kind: "conflict", running: true });
    store.complete("k", token, 1, 1000);
    expect(store.claim(req("k", "other"))).toEqual({ kind: "conflict", running: false });
  });

  test("release drops a running record and wakes its waiters, so the key can be claimed again", async () => {
    const store = new MemoryIdempotencyStore(new FakeClock());
    const token = tokenOf(store.claim(req("k")));
    const waiting = store.claim(req("k"));
    store.release("k", token);
    if (waiting.kind === "running") await waiting.settled;
    expect(store.claim(req("k")).kind).toBe("claimed");
  });

  test("a token whose claim is gone is fenced: its complete and release change nothing", () => {
    const clock = new FakeClock();
    const store = new MemoryIdempotencyStore(clock);
    const first = tokenOf(store.claim(req("k", "fp", 10)));
    store.release("k", first);
    const second = tokenOf(store.claim(req("k")));
    store.complete("k", first, "stale", 1000);
    store.release("k", first);
    expect(store.claim(req("k")).kind).toBe("running");
    store.complete("k", second, "fresh", 1000);
    expect(store.claim(req("k"))).toEqual({ kind: "done", value: "fresh" });
  });

  test("a done record lives ttl ms from completion, by the injected clock", () => {
    const clock = new FakeClock();
    const store = new MemoryIdempotencyStore(clock);
    const token = tokenOf(store.claim(req("k", "fp", 500)));
    clock.advance(100);
    store.complete("k", token, 1, 500);
    clock.advance(499);
    expect(store.claim(req("k", "other")).kind).toBe("conflict");
    clock.advance(1);
    expect(store.claim(req("k", "other")).kind).toBe("claimed");
  });

  test("expired records are swept in bulk, so the store does not grow without bound", () => {
    const clock = new FakeClock();
    const store = new MemoryIdempotencyStore(clock);
    for (let i = 0; i < 5000; i++) {
      const token = tokenOf(store.claim(req(`k${i}`, "fp", 1)));
      store.complete(`k${i}`, token, i, 1);
      clock.advance(1);
    }
    expect(store.size).toBeLessThanOrEqual(1024);
  });

  test("the sweep does not stop at a live record: one long-TTL record does not shield later short-TTL ones", () => {
    const clock = new FakeClock();
    const store = new MemoryIdempotencyStore(clock);
    const finish = (key: string, ttlMs: number) => store.complete(key, tokenOf(store.claim(req(key, "fp", ttlMs))), 1, ttlMs);
    finish("long", 3_600_000); // first in claim order, live for an hour
    for (let i = 0; i < 3000; i++) finish(`short${i}`, 10);
    clock.advance(11); // every short record has expired; none was claimed again
    const FRESH = 2100; // enough claims for two more sweeps
    for (let i = 0; i < FRESH; i++) finish(`fresh${i}`, 3_600_000);
    expect(store.size).toBe(1 + FRESH);
    expect(store.claim(req("long", "other")).kind).toBe("conflict"); // the live one was kept
  });

  test("expiry is per TTL: records of several TTLs each go when theirs passes, not when a neighbour's does", () => {
    const clock = new FakeClock();
    const store = new MemoryIdempotencyStore(clock);
    const finish = (key: string, ttlMs: number) => store.complete(key, tokenOf(store.claim(req(key, "fp", ttlMs))), key, ttlMs);
    for (let i = 0; i < 50; i++) {
      finish(`a${i}`, 10);
      finish(`b${i}`, 1000);
    }
    clock.advance(10);
    finish("tick", 1000); // a completion drops what has expired
    finish("tock", 1000);
    expect(store.size).toBe(50 + 2);
    expect(store.claim(req("b0")).kind).toBe("done");
    clock.advance(1000);
    for (let i = 0; i < 3; i++) finish(`late${i}`, 5000);
    expect(store.size).toBe(3);
  });

  test("a key claimed again after its record expired keeps the new record when the old one's turn to expire comes", () => {
    const clock = new FakeClock();
    const store = new MemoryIdempotencyStore(clock);
    store.complete("k", tokenOf(store.claim(req("k", "fp", 10))), "old", 10);
    clock.advance(10);
    const fresh = tokenOf(store.claim(req("k", "fp", 10))); // replaces the expired record
    store.complete("k", fresh, "new", 10_000);
    store.complete("other", tokenOf(store.claim(req("other", "fp", 10))), 1, 10); // drains the 10 ms queue, old "k" included
    expect(store.claim(req("k"))).toEqual({ kind: "done", value: "new" });
  });

  test("the claimed result is the record itself: its token completes it, and a second complete with it changes nothing", () => {
    const store = new MemoryIdempotencyStore(new FakeClock());
    const c = store.claim(req("k"));
    expect(c.kind).toBe("claimed");
    const token = tokenOf(c);
    store.complete("k", token, "first", 1000);
    store.complete("k", token, "second", 1000);
    expect(store.claim(req("k"))).toEqual({ kind: "done", value: "first" });
  });
});
