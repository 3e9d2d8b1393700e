/**
 * Closing a file store is final and harmless: a second close does nothing (it must never
 * close a descriptor number that now belongs to someone else), and a waiter polling a claim
 * through a closed store stops instead of locking a dead descriptor — which once blocked the
 * whole process for the lock's wait time.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileIdempotencyStore } from "../../src/runtime/stores/file/file-idempotency-store";

const clock = { now: () => Date.now(), sleep: (ms: number) => Bun.sleep(ms) } as never;
const req = { key: "k", fingerprint: "fp", ttlMs: 60_000, leaseMs: 60_000 };

describe("§11 file store: close", () => {
  test("closing twice is harmless", () => {
    const store = FileIdempotencyStore.open({ path: join(mkdtempSync(join(tmpdir(), "luma-close-")), "s.json"), clock });
    store.close();
    expect(() => store.close()).not.toThrow();
  });

  test("a waiter on another store's claim stops polling once its own store is closed, without blocking", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "luma-close-")), "s.json");
    const owner = FileIdempotencyStore.open({ path, clock });
    const waiter = FileIdempotencyStore.open({ path, clock });
    expect((owner.claim(req) as { kind: string }).kind).toBe("claimed");
    const running = waiter.claim(req) as { kind: string; settled: Promise<void> };
    expect(running.kind).toBe("running");
    waiter.close();
    const t0 = performance.now();
    await running.settled;
    expect(performance.now() - t0).toBeLessThan(2_000);
    owner.close();
  });
});
