/**
 * Spec §11 file store across real processes: the exclusive lock with dead-process recovery,
 * and in-flight claims (a second caller never runs while the first is running).
 */
import { describe, expect, test } from "bun:test";
import { LumaError } from "../../src/diagnostics/luma-error";
import { claimsOf, freshDir, openStore, req, tokenOf } from "./support/store-fixture";
import { startStoreWorker } from "./support/store-worker-process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

describe("§11 file store: exclusive lock with dead-process recovery", () => {
  test("a lock whose owner died (kill -9) is taken over at once", async () => {
    const dir = freshDir();
    const path = join(dir, "idem.json");
    const owner = await startStoreWorker("file", path);
    expect(await owner.send({ op: "hold-lock" })).toEqual({ locked: true, pid: owner.pid });
    await owner.kill9();
    const { store } = openStore(dir, { lockWaitMs: 2000 });
    expect(store.claim(req("k")).kind).toBe("claimed");
  });

  test("a live owner's lock is not taken over: the caller waits, then fails naming the owner", async () => {
    const dir = freshDir();
    const path = join(dir, "idem.json");
    const owner = await startStoreWorker("file", path);
    try {
      await owner.send({ op: "hold-lock" });
      let error: unknown;
      try {
        openStore(dir, { lockWaitMs: 150 });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LumaError);
      expect((error as LumaError).message).toBe(
        `The idempotency store lock ${path}.lock is held by process ${owner.pid}; gave up after 150 ms.`,
      );
    } finally {
      await owner.kill9();
    }
    expect(openStore(dir).store.claim(req("k")).kind).toBe("claimed");
  });
});

describe("§11 file store: in-flight claims across processes", () => {
  test("while another process runs the key, a caller gets running; when it completes, the caller gets its result", async () => {
    const dir = freshDir();
    const { store, path } = openStore(dir);
    const other = await startStoreWorker("file", path);
    try {
      expect(await other.send({ op: "claim", key: "k", fp: "fp" })).toEqual({ kind: "claimed" });
      const mine = store.claim(req("k", "fp"));
      expect(mine.kind).toBe("running");
      expect(store.claim(req("k", "other input")).kind).toBe("conflict");
      await other.send({ op: "complete", key: "k", value: { from: "other" } });
      if (mine.kind === "running") await mine.settled;
      expect(store.claim(req("k", "fp"))).toEqual({ kind: "done", value: { from: "other" } });
    } finally {
      await other.stop();
    }
  });

  test("a claim whose owner died mid-call is taken over at once (no waiting for the lease)", async () => {
    const dir = freshDir();
    const { store, path } = openStore(dir);
    const other = await startStoreWorker("file", path);
    expect(await other.send({ op: "claim", key: "k", fp: "fp", leaseMs: 600_000 })).toEqual({ kind: "claimed" });
    await other.kill9();
    expect(store.claim(req("k", "fp")).kind).toBe("claimed");
  });

  test("a waiter on a claim whose owner dies is woken, and then runs the key itself", async () => {
    const dir = freshDir();
    const { store, path } = openStore(dir);
    const other = await startStoreWorker("file", path);
    await other.send({ op: "claim", key: "k", fp: "fp" });
    const mine = store.claim(req("k", "fp"));
    expect(mine.kind).toBe("running");
    await other.kill9();
    if (mine.kind === "running") await mine.settled;
    expect(store.claim(req("k", "fp")).kind).toBe("claimed");
  });

  test("a claim past its lease (in-progress expiry) is kept while its owner runs, taken over once it is stopped; the old owner is fenced", async () => {
    const dir = freshDir();
    const { store, path } = openStore(dir);
    const other = await startStoreWorker("file", path);
    try {
      await other.send({ op: "claim", key: "k", fp: "fp", leaseMs: 0 }); // its lease ends as it starts
      // Its process runs (its handler may block the thread that renews): the key stays its.
      expect(store.claim(req("k", "fp")).kind).toBe("running");
      // A stopped process (SIGSTOP) is stalled, not working: its lapsed claim is taken over.
      process.kill(other.pid, "SIGSTOP");
      let token: ReturnType<typeof tokenOf>;
      try {
        const stateOf = () => readFileSync(`/proc/${other.pid}/stat`, "utf8").split(") ")[1][0];
        while (stateOf() !== "T") await Bun.sleep(5);
        // Taken over once stopped: on a loaded machine the first look may still fall inside the
        // lease by the two processes' clocks, so the claim is tried again for a while.
        let claim = store.claim(req("k", "fp"));
        for (const deadline = Date.now() + 5_000; claim.kind === "running" && Date.now() < deadline; claim = store.claim(req("k", "fp"))) await Bun.sleep(10);
        token = tokenOf(claim);
      } finally {
        process.kill(other.pid, "SIGCONT");
      }
      // The old owner's completion is fenced off; the taker's stands.
      await other.send({ op: "complete", key: "k", value: "stale" });
      store.complete("k", token, "taker", 60_000);
      expect(store.claim(req("k", "fp"))).toEqual({ kind: "done", value: "taker" });
    } finally {
      await other.stop();
    }
  });

  test("a released claim in another process frees the key for this one", async () => {
    const dir = freshDir();
    const { store, path } = openStore(dir);
    const other = await startStoreWorker("file", path);
    try {
      await other.send({ op: "claim", key: "k", fp: "fp" });
      const mine = store.claim(req("k", "fp"));
      await other.send({ op: "release", key: "k" });
      if (mine.kind === "running") await mine.settled;
      expect(store.claim(req("k", "fp")).kind).toBe("claimed");
    } finally {
      await other.stop();
    }
  });

  test("claims of dead processes are purged when a store opens", async () => {
    const dir = freshDir();
    const path = join(dir, "idem.json");
    const other = await startStoreWorker("file", path);
    await other.send({ op: "claim", key: "a", fp: "fp" });
    await other.send({ op: "claim", key: "b", fp: "fp" });
    await other.kill9();
    expect(Object.keys(claimsOf(path)).length).toBe(2);
    openStore(dir).store.close();
    expect(claimsOf(path)).toEqual({});
  });
});
