/** Spec §11 `backend: "file"`: records, TTL and purge, fencing, relative paths. */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openIdempotencyStore } from "../../src/runtime/stores/open-idempotency-store";
import { FileIdempotencyStore } from "../../src/runtime/stores/file/file-idempotency-store";
import { LumaError } from "../../src/diagnostics/luma-error";
import { FakeClock } from "../pipeline/fake-clock";
import { freshDir, openStore, record, req, tokenOf } from "./support/store-fixture";

const rowsOf = (path: string): unknown[][] => JSON.parse(readFileSync(path, "utf8")).records;

describe("§11 file store: records", () => {
  test("same key + same input replays the stored value, also from a store opened afterwards (a new process)", () => {
    const dir = freshDir();
    const { store, path } = openStore(dir);
    record(store, "k", { id: 7 });
    expect(store.claim(req("k"))).toEqual({ kind: "done", value: { id: 7 } });
    store.close();
    const reopened = openStore(dir).store;
    expect(reopened.claim(req("k"))).toEqual({ kind: "done", value: { id: 7 } });
    expect(rowsOf(path).length).toBe(1);
  });

  test("same key + different input is a conflict, whether the record is done or running", () => {
    const { store } = openStore(freshDir());
    const token = tokenOf(store.claim(req("k", "a")));
    expect(store.claim(req("k", "b"))).toEqual({ kind: "conflict", running: true });
    store.complete("k", token, 1, 60_000);
    expect(store.claim(req("k", "b"))).toEqual({ kind: "conflict", running: false });
  });

  test("a released claim stores nothing: the key can be claimed again", () => {
    const { store, path } = openStore(freshDir());
    store.release("k", tokenOf(store.claim(req("k"))));
    expect(store.claim(req("k")).kind).toBe("claimed");
    expect(rowsOf(path)).toEqual([]);
  });

  test("a record lives idempotency_ttl_ms from completion by the injected clock, then the key runs again", () => {
    const clock = new FakeClock();
    const { store } = openStore(freshDir(), { clock });
    record(store, "k", "v", "fp", 1000);
    clock.advance(999);
    expect(store.claim(req("k", "fp")).kind).toBe("done");
    clock.advance(1);
    expect(store.claim(req("k", "fp")).kind).toBe("claimed");
  });

  test("expired records are purged at start: the file no longer holds them", () => {
    const dir = freshDir();
    const clock = new FakeClock();
    const first = openStore(dir, { clock });
    record(first.store, "short", 1, "fp", 100);
    record(first.store, "long", 2, "fp", 10_000);
    first.store.close();
    expect(rowsOf(first.path).length).toBe(2);
    clock.advance(100);
    openStore(dir, { clock }).store.close();
    expect(rowsOf(first.path).map((r) => r[0])).toEqual(["long"]);
  });

  test("a complete whose claim was taken over after its lease is fenced: it does not overwrite", () => {
    const clock = new FakeClock();
    const dir = freshDir();
    const { store } = openStore(dir, { clock });
    // Another store on the file takes over: the store that made a claim and has not completed
    // or released it knows its handler still runs, and does not let its own key go.
    const taker = openStore(dir, { clock }).store;
    const late = tokenOf(store.claim(req("k", "fp", 60_000, 10)));
    clock.advance(10); // the lease passed: the key is free for the next caller
    expect(store.claim(req("k", "fp")).kind).toBe("running");
    const next = tokenOf(taker.claim(req("k", "fp")));
    store.complete("k", late, "late", 60_000);
    expect(store.claim(req("k", "fp")).kind).toBe("running");
    store.complete("k", next, "taker", 60_000);
    expect(store.claim(req("k", "fp"))).toEqual({ kind: "done", value: "taker" });
  });

  test("the file is written atomically: no temp file is left beside it", () => {
    const dir = freshDir();
    const { store } = openStore(dir);
    for (let i = 0; i < 5; i++) record(store, `k${i}`, i);
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});

describe("§11 idempotency_store config", () => {
  const ctx = (dir: string, env: Record<string, string> = {}) => ({ projectDir: dir, env, warn: () => {} });

  test("a relative path resolves against the project directory", async () => {
    const dir = freshDir();
    const store = await openIdempotencyStore({ backend: "file", path: "state/idem.json" }, ctx(dir));
    expect(store).toBeInstanceOf(FileIdempotencyStore);
    expect(existsSync(join(dir, "state", "idem.json"))).toBe(true);
    await store!.close?.();
  });

  test("without a path the file is .luma-idempotency.json in the project directory", async () => {
    const dir = freshDir();
    const store = await openIdempotencyStore({ backend: "file" }, ctx(dir));
    expect(existsSync(join(dir, ".luma-idempotency.json"))).toBe(true);
    await store!.close?.();
  });

  test("memory (and no idempotency_store) means the pipeline's process-local store", async () => {
    expect(await openIdempotencyStore({ backend: "memory" }, ctx(freshDir()))).toBeUndefined();
    expect(await openIdempotencyStore(undefined, ctx(freshDir()))).toBeUndefined();
  });

  // sqlite, postgres and redis (issue 7) are covered by tests/stores/backends/open-backends.test.ts.
});
