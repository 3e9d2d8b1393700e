/**
 * The default idempotency store: process-local records in a Map (spec §11 `memory`).
 *
 * Expired records are dropped when their key is claimed again, and swept in bulk every
 * SWEEP_EVERY claims. Records sit in the Map in claim order, which is not expiry order:
 * tools have different TTLs, and calls finish in any order. So the sweep does not stop at
 * the first live record (one long-TTL record would shield every later short-TTL one); it
 * walks the Map with a cursor kept from one sweep to the next, SWEEP_BUDGET records at a
 * time, dropping the expired ones it meets. The budget is twice the records a sweep
 * interval can add, so the cursor outruns the growth and reaches every record within a
 * bounded number of claims, at an amortised cost of about two steps per claim. A waiter on
 * a running record gets a promise made only when someone actually waits.
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
const SWEEP_BUDGET = 2 * SWEEP_EVERY;
const RUNNING_CONFLICT: ClaimResult = { kind: "conflict", running: true };
const DONE_CONFLICT: ClaimResult = { kind: "conflict", running: false };

export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();
  private claimsUntilSweep = SWEEP_EVERY;
  /** Where the last sweep stopped (Map iterators stay valid across deletes and inserts). */
  private cursor: Iterator<[string, IdempotencyRecord]> | undefined = undefined;

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
    this.cursor ??= this.records.entries();
    for (let budget = SWEEP_BUDGET; budget > 0; budget--) {
      const step = this.cursor.next();
      if (step.done) {
        this.cursor = undefined; // the next sweep starts again from the oldest record
        return;
      }
      const [key, rec] = step.value;
      // Running records stay (their owner completes or releases them); so do live done ones.
      if (rec.done && rec.expiresAt <= now) this.records.delete(key);
    }
  }
}
