/**
 * The default idempotency store: process-local records in a Map (spec §11 `memory`).
 *
 * Expired records are dropped when their key is claimed again, and swept in bulk every
 * SWEEP_EVERY claims. Records sit in the Map in claim order, which is close to expiry
 * order for one TTL; the sweep skips running records and stops at the first live one, so
 * it costs about one step per expired record. A waiter on a running record gets a promise
 * made only when someone actually waits.
 *
 * Leases: an in-flight record here cannot outlive its owner (they share the process, and
 * the pipeline completes or releases every claim by the call's deadline), so `leaseMs` is
 * not needed. The claim's token is the record itself: a record replaced after its TTL is
 * not touched by a late `complete` or `release` holding the old one.
 */
import type { Clock } from "../clock";
import type { ClaimRequest, ClaimResult, ClaimToken, IdempotencyStore } from "./idempotency-store";

/** One record, mutated in place from running to done (no Map churn on completion). */
class IdempotencyRecord {
  done = false;
  value: unknown = undefined;
  expiresAt = Infinity;
  settled: Promise<void> | undefined = undefined;
  wake: (() => void) | undefined = undefined;
  constructor(readonly fingerprint: string) {}
}

const SWEEP_EVERY = 1024;
const RUNNING_CONFLICT: ClaimResult = { kind: "conflict", running: true };
const DONE_CONFLICT: ClaimResult = { kind: "conflict", running: false };

export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();
  private claimsUntilSweep = SWEEP_EVERY;

  constructor(private readonly clock: Clock) {}

  claim(req: ClaimRequest): ClaimResult {
    if (--this.claimsUntilSweep === 0) this.sweep();
    const rec = this.records.get(req.key);
    if (rec !== undefined) {
      if (!rec.done) {
        if (rec.fingerprint !== req.fingerprint) return RUNNING_CONFLICT;
        rec.settled ??= new Promise<void>((resolve) => (rec.wake = resolve));
        return { kind: "running", settled: rec.settled };
      }
      if (rec.expiresAt > this.clock.now()) {
        return rec.fingerprint === req.fingerprint ? { kind: "done", value: rec.value } : DONE_CONFLICT;
      }
      this.records.delete(req.key); // expired: the new record goes to the end, in claim order
    }
    const fresh = new IdempotencyRecord(req.fingerprint);
    this.records.set(req.key, fresh);
    return { kind: "claimed", token: fresh };
  }

  complete(key: string, token: ClaimToken, value: unknown, ttlMs: number): void {
    const rec = token as IdempotencyRecord;
    if (this.records.get(key) !== rec) return; // fenced: the claim was dropped meanwhile
    rec.done = true;
    rec.value = value;
    rec.expiresAt = this.clock.now() + ttlMs;
    rec.wake?.();
  }

  release(key: string, token: ClaimToken): void {
    const rec = token as IdempotencyRecord;
    if (this.records.get(key) === rec && !rec.done) {
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
