/**
 * Runs one conformance case against one backend: a fresh place, a fake clock shared by every
 * store opened in the case, and cleanup (stores closed, server-side tables and keys dropped).
 */
import { test } from "bun:test";
import type { ClaimRequest, ClaimResult, ClaimToken, IdempotencyStore } from "../../../src/runtime/stores/idempotency-store";
import { FakeClock } from "../../pipeline/fake-clock";
import { underCi } from "./service-urls";
import type { OpenOptions, StoreBackend } from "./store-backends";

export const PASSPHRASE = "conformance passphrase";

export interface CaseContext {
  backend: StoreBackend;
  place: string;
  clock: FakeClock;
  /** A store on this case's place (a second call: another process or machine on the same records). */
  open(opts?: Partial<OpenOptions>): Promise<IdempotencyStore>;
}

export interface ConformanceCase {
  /** Quotes the rule it checks. */
  name: string;
  /** Which backends the rule applies to (default: all). */
  applies?: (b: StoreBackend) => boolean;
  run(ctx: CaseContext): Promise<void>;
}

export const req = (key: string, fingerprint = '{"v":1}', ttlMs = 60_000, leaseMs = 30_000): ClaimRequest => ({ key, fingerprint, ttlMs, leaseMs });

export const tokenOf = (c: ClaimResult): ClaimToken => {
  if (c.kind !== "claimed") throw new Error(`expected a claim, got ${JSON.stringify(c)}`);
  return c.token;
};

export const settledOf = (c: ClaimResult): Promise<void> => {
  if (c.kind !== "running") throw new Error(`expected running, got ${JSON.stringify(c)}`);
  return c.settled;
};

/** claim + complete: one finished call. */
export const record = async (store: IdempotencyStore, key: string, value: unknown, fingerprint = '{"v":1}', ttlMs = 60_000) =>
  store.complete(key, tokenOf(await store.claim(req(key, fingerprint, ttlMs))), value, ttlMs);

/** The error a promise (or a throwing call) ends with. */
export const failureOf = async (f: () => unknown): Promise<Error> => {
  try {
    await f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a failure");
};

export const registerCase = (backend: StoreBackend, c: ConformanceCase): void => {
  if (c.applies && !c.applies(backend)) return;
  const reason = backend.unavailable();
  if (reason !== undefined) {
    if (underCi()) test(c.name, () => void fail(`${backend.name}: ${reason}`));
    else test.skip(`${c.name} (skipped: ${reason})`, () => {});
    return;
  }
  test(c.name, async () => {
    const place = backend.newPlace();
    const clock = new FakeClock();
    clock.time = Date.now(); // servers expire keys by their own clock too: keep the fake one near it
    const opened: IdempotencyStore[] = [];
    const ctx: CaseContext = {
      backend,
      place,
      clock,
      async open(opts = {}) {
        const store = await backend.open(place, { clock, ...opts });
        opened.push(store);
        return store;
      },
    };
    try {
      await c.run(ctx);
    } finally {
      for (const s of opened) await Promise.resolve().then(() => s.close?.()).catch(() => {});
      await backend.dropPlace(place);
    }
  });
};

const fail = (message: string): never => {
  throw new Error(message);
};
