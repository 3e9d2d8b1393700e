/**
 * Conformance cases, spec §11 in-flight records: a second caller with the same key while
 * the first runs waits for it (never a second run); leases (the in-progress expiry) free
 * the key of an owner that went silent, and fencing keeps that owner from writing after;
 * `renew` (the heartbeat) keeps a live owner's claim past its first lease, and fails for an
 * owner whose claim was lost.
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
    name: "renew answers true while the claim runs, false once it completed or was released (nothing changes then)",
    async run({ open }) {
      const store = await open();
      const a = tokenOf(await store.claim(req("a")));
      expect(await store.renew("a", a, 30_000)).toBe(true);
      await store.complete("a", a, "done", 60_000);
      expect(await store.renew("a", a, 30_000)).toBe(false);
      expect(await store.claim(req("a"))).toEqual({ kind: "done", value: "done" });
      const b = tokenOf(await store.claim(req("b")));
      await store.release("b", b);
      expect(await store.renew("b", b, 30_000)).toBe(false);
      expect((await store.claim(req("b"))).kind).toBe("claimed");
    },
  },
  {
    name: "heartbeat: a renewed claim holds its key past its first lease; unrenewed, the new lease passes and the key is taken over",
    ...leased,
    async run({ open, clock }) {
      const a = await open();
      const b = await open();
      const token = tokenOf(await a.claim(req("k", "fp", 60_000, 1000)));
      for (let beat = 0; beat < 5; beat++) {
        clock.advance(600);
        expect(await a.renew("k", token, 1000)).toBe(true);
        expect((await b.claim(req("k", "fp"))).kind).toBe("running");
      }
      clock.advance(1000);
      expect((await b.claim(req("k", "fp"))).kind).toBe("claimed");
    },
  },
  {
    name: "fencing: renew fails once the lease passed, and for a claim taken over; it never extends the taker's lease",
    ...leased,
    async run({ open, clock }) {
      const a = await open();
      const b = await open();
      const stale = tokenOf(await a.claim(req("k", "fp", 60_000, 1000)));
      clock.advance(1000);
      expect(await a.renew("k", stale, 1000)).toBe(false); // lapsed: the heartbeat was too late
      const taker = tokenOf(await b.claim(req("k", "fp", 60_000, 1000)));
      expect(await a.renew("k", stale, 60_000)).toBe(false);
      clock.advance(1000); // the taker's own lease (not the stale owner's 60 s) governs
      const third = await a.claim(req("k", "fp", 60_000, 1000));
      expect(third.kind).toBe("claimed");
      expect(await b.renew("k", taker, 1000)).toBe(false);
      await b.complete("k", taker, "taker", 60_000);
      await a.complete("k", tokenOf(third), "third", 60_000);
      expect(await b.claim(req("k", "fp"))).toEqual({ kind: "done", value: "third" });
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
