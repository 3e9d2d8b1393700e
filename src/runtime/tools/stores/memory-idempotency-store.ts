/**
 * The default idempotency store: process-local records in a Map (spec §11 `memory`).
 *
 * Expired records are dropped when their key is claimed again, and swept in bulk every
 * SWEEP_EVERY claims. Records sit in the Map in claim order, which is close to expiry
 * order for one TTL; the sweep skips running records and stops at the first live one, so
 * it costs about one step per expired record. A waiter on a running record gets a promise
 * made only when someone actually waits.
 */
import type { Clock } from "../clock";
import type { ClaimResult, IdempotencyStore } from "./idempotency-store";

/** One record, mutated in place from running to done (no Map churn on completion). */
class IdempotencyRecord {
  done = false;
  value: unknown = undefined;
  expiresAt = Infinity;
  settled: Promise<void> | undefined = undefined;
  wake: (() => void) | undefined = undefined;
  constructor(public fingerprint: string) {}
}

const SWEEP_EVERY = 1024;
const CLAIMED: ClaimResult = { kind: "claimed" };

export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();
  private claimsUntilSweep = SWEEP_EVERY;

  constructor(private readonly clock: Clock) {}

  /** In-process records need no lease, so `_ttlMs` is unused here. */
  claim(key: string, fingerprint: string, _ttlMs?: number): ClaimResult {
    if (--this.claimsUntilSweep === 0) this.sweep();
    const rec = this.records.get(key);
    if (rec !== undefined) {
      if (!rec.done) {
        rec.settled ??= new Promise<void>((resolve) => (rec.wake = resolve));
        return { kind: "running", fingerprint: rec.fingerprint, settled: rec.settled };
      }
      if (rec.expiresAt > this.clock.now()) return { kind: "done", fingerprint: rec.fingerprint, value: rec.value };
      this.records.delete(key); // expired: the new record goes to the end, in claim order
    }
    this.records.set(key, new IdempotencyRecord(fingerprint));
    return CLAIMED;
  }

  complete(key: string, fingerprint: string, value: unknown, ttlMs: number): void {
    let rec = this.records.get(key);
    if (rec === undefined) this.records.set(key, (rec = new IdempotencyRecord(fingerprint)));
    rec.done = true;
    rec.fingerprint = fingerprint;
    rec.value = value;
    rec.expiresAt = this.clock.now() + ttlMs;
    rec.wake?.();
  }

  release(key: string): void {
    const rec = this.records.get(key);
    if (rec && !rec.done) {
      this.records.delete(key);
      rec.wake?.();
    }
  }

  /** Live records, for tests and diagnostics. */
  get size(): number {
    return this.records.size;
  }

  private sweep(): void {
    this.claimsUntilSweep = SWEEP_EVERY;
    const now = this.clock.now();
    for (const [key, rec] of this.records) {
      if (rec.done && rec.expiresAt <= now) this.records.delete(key);
      else if (rec.done) break;
    }
  }
}
