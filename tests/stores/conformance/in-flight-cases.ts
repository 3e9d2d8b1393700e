/**
 * Conformance cases, spec §11 in-flight records: a second caller with the same key while
 * the first runs waits for it (never a second run); leases (the in-progress expiry) free
 * the key of an owner that went silent, and fencing keeps that owner from writing after.
 */
import { expect } from "bun:test";
import { req, settledOf, tokenOf, type ConformanceCase } from "./conformance-harness";

const shared = { applies: (b: { shared: boolean }) => b.shared };
const leased = { applies: (b: { shared: boolean; leases: boolean }) => b.shared && b.leases };

export const IN_FLIGHT_CASES: ConformanceCase[] = [
  {
    name: "while a call runs, a twin gets running; when the call completes, the twin's claim replays its output",
    async run({ open }) {
      const store = await open();
      const token = tokenOf(await store.claim(req("k")));
      const twin = await store.claim(req("k"));
      const settled = settledOf(twin);
      await store.complete("k", token, { ran: "once" }, 60_000);
      await settled;
      expect(await store.claim(req("k"))).toEqual({ kind: "done", value: { ran: "once" } });
    },
  },
  {
    name: "when the running call fails (release), its twin is woken and runs the key itself",
    async run({ open }) {
      const store = await open();
      const token = tokenOf(await store.claim(req("k")));
      const settled = settledOf(await store.claim(req("k")));
      await store.release("k", token);
      await settled;
      expect((await store.claim(req("k"))).kind).toBe("claimed");
    },
  },
  {
    name: "another worker's running call: running (same input) or conflict (other input), then its output",
    ...shared,
    async run({ open }) {
      const a = await open();
      const b = await open();
      const token = tokenOf(await a.claim(req("k", "fp")));
      const settled = settledOf(await b.claim(req("k", "fp")));
      expect(await b.claim(req("k", "other"))).toEqual({ kind: "conflict", running: true });
      await a.complete("k", token, { from: "a" }, 60_000);
      await settled;
      expect(await b.claim(req("k", "fp"))).toEqual({ kind: "done", value: { from: "a" } });
    },
  },
  {
    name: "another worker's failed call (release) wakes this worker's waiter, which then claims the key",
    ...shared,
    async run({ open }) {
      const a = await open();
      const b = await open();
      const token = tokenOf(await a.claim(req("k")));
      const settled = settledOf(await b.claim(req("k")));
      await a.release("k", token);
      await settled;
      expect((await b.claim(req("k"))).kind).toBe("claimed");
    },
  },
  {
    name: "a silent owner's claim holds its key for the lease (the in-progress expiry), not the TTL, then is taken over",
    ...leased,
    async run({ open, clock }) {
      const a = await open();
      const b = await open();
      tokenOf(await a.claim(req("k", "fp", 3_600_000, 1000)));
      clock.advance(999);
      expect((await b.claim(req("k", "fp"))).kind).toBe("running");
      clock.advance(1);
      expect((await b.claim(req("k", "fp"))).kind).toBe("claimed");
    },
  },
  {
    name: "a waiter on a claim whose lease passes is woken, and then runs the key itself",
    ...leased,
    async run({ open, clock }) {
      const a = await open();
      const b = await open();
      tokenOf(await a.claim(req("k", "fp", 60_000, 1000)));
      const settled = settledOf(await b.claim(req("k", "fp")));
      clock.advance(1000);
      await settled;
      expect((await b.claim(req("k", "fp"))).kind).toBe("claimed");
    },
  },
  {
    name: "fencing: after a take-over, the old owner's complete and release change nothing; the taker's result stands",
    ...leased,
    async run({ open, clock }) {
      const a = await open();
      const b = await open();
      const stale = tokenOf(await a.claim(req("k", "fp", 60_000, 1000)));
      clock.advance(1000);
      const taker = tokenOf(await b.claim(req("k", "fp", 60_000, 30_000)));
      await a.release("k", stale);
      expect((await a.claim(req("k", "fp"))).kind).toBe("running");
      await a.complete("k", stale, "stale", 60_000);
      expect((await a.claim(req("k", "fp"))).kind).toBe("running");
      await b.complete("k", taker, "taker", 60_000);
      expect(await a.claim(req("k", "fp"))).toEqual({ kind: "done", value: "taker" });
      await a.complete("k", stale, "stale again", 60_000);
      expect(await b.claim(req("k", "fp"))).toEqual({ kind: "done", value: "taker" });
    },
  },
  {
    name: "many concurrent claims of one key by several workers: exactly one is claimed",
    ...shared,
    async run({ open }) {
      const stores = [await open(), await open(), await open()];
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 3].claim(req("hot", "fp"))));
      expect(results.filter((r) => r.kind === "claimed").length).toBe(1);
      expect(results.filter((r) => r.kind === "running").length).toBe(29);
    },
  },
];
