/**
 * Conformance cases, spec §9 "Idempotency" and §11: records, conflicts, TTL, persistence.
 * Every backend must pass these exactly as written.
 */
import { expect } from "bun:test";
import { record, req, tokenOf, type ConformanceCase } from "./conformance-harness";

const VALUES: unknown[] = [
  { id: 7, nested: { list: [1, "two", null, true], text: "ünïcödé ✓ 日本" } },
  ["a", 1, 2.5, false],
  "just a string",
  0,
  true,
  null,
];

export const RECORD_CASES: ConformanceCase[] = [
  {
    name: "same key + same input: one claim, then the stored output is replayed",
    async run({ open }) {
      const store = await open();
      const token = tokenOf(await store.claim(req("k")));
      await store.complete("k", token, { id: 7 }, 60_000);
      expect(await store.claim(req("k"))).toEqual({ kind: "done", value: { id: 7 } });
      expect(await store.claim(req("k"))).toEqual({ kind: "done", value: { id: 7 } });
    },
  },
  {
    name: "stored outputs come back as the same JSON values (objects, arrays, unicode, numbers, booleans, null)",
    async run({ open }) {
      const store = await open();
      for (const [i, v] of VALUES.entries()) await record(store, `k${i}`, v);
      for (const [i, v] of VALUES.entries()) expect(await store.claim(req(`k${i}`))).toEqual({ kind: "done", value: v });
    },
  },
  {
    name: "same key + different input is a conflict: running while the first call runs, done after",
    async run({ open }) {
      const store = await open();
      const token = tokenOf(await store.claim(req("k", "a")));
      expect(await store.claim(req("k", "b"))).toEqual({ kind: "conflict", running: true });
      await store.complete("k", token, 1, 60_000);
      expect(await store.claim(req("k", "b"))).toEqual({ kind: "conflict", running: false });
      expect(await store.claim(req("k", "a"))).toEqual({ kind: "done", value: 1 });
    },
  },
  {
    name: "errors are not stored: a released claim frees the key for the next call",
    async run({ open }) {
      const store = await open();
      await store.release("k", tokenOf(await store.claim(req("k"))));
      const again = tokenOf(await store.claim(req("k")));
      await store.complete("k", again, "second try", 60_000);
      expect(await store.claim(req("k"))).toEqual({ kind: "done", value: "second try" });
    },
  },
  {
    name: "keys are exact: NUL-tagged, unicode and very long keys never meet each other's records",
    async run({ open }) {
      const store = await open();
      const keys = ["tool\u0000s1", "tool\u0000j1", "tool\u0000s1 ", "ключ ✓", "x".repeat(20_000), "x".repeat(20_001)];
      for (const k of keys) await record(store, k, k.length);
      for (const k of keys) expect(await store.claim(req(k))).toEqual({ kind: "done", value: k.length });
      expect((await store.claim(req("tool"))).kind).toBe("claimed");
    },
  },
  {
    name: "the fingerprint is compared whole: inputs differing in their last character conflict",
    async run({ open }) {
      const store = await open();
      const long = JSON.stringify({ text: "y".repeat(50_000) });
      await record(store, "k", "v", long);
      expect(await store.claim(req("k", long))).toEqual({ kind: "done", value: "v" });
      expect(await store.claim(req("k", long.slice(0, -2) + "z}"))).toEqual({ kind: "conflict", running: false });
    },
  },
  {
    name: "a record lives ttlMs from completion, then it is dropped and the key runs again",
    async run({ open, clock }) {
      const store = await open();
      await record(store, "k", "v", "fp", 1000);
      clock.advance(999);
      expect(await store.claim(req("k", "fp"))).toEqual({ kind: "done", value: "v" });
      clock.advance(1);
      expect((await store.claim(req("k", "fp"))).kind).toBe("claimed");
    },
  },
  {
    name: "the TTL counts from completion, not from the claim",
    async run({ open, clock }) {
      const store = await open();
      const token = tokenOf(await store.claim(req("k", "fp", 1000, 30_000)));
      clock.advance(5000);
      await store.complete("k", token, "slow call", 1000);
      clock.advance(999);
      expect(await store.claim(req("k", "fp"))).toEqual({ kind: "done", value: "slow call" });
    },
  },
  {
    name: "after the TTL, a different input is no conflict: the key is free",
    async run({ open, clock }) {
      const store = await open();
      await record(store, "k", "v", "a", 1000);
      clock.advance(1000);
      expect((await store.claim(req("k", "b"))).kind).toBe("claimed");
    },
  },
  {
    name: "records outlive the store: a store opened afterwards (a new process) replays them",
    applies: (b) => b.persistent,
    async run({ open }) {
      const first = await open();
      await record(first, "k", { id: 1 });
      await first.close?.();
      const second = await open();
      expect(await second.claim(req("k"))).toEqual({ kind: "done", value: { id: 1 } });
    },
  },
];
