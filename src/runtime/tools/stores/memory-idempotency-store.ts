/**
 * The default idempotency store: process-local records in a Map (spec §11 `memory`).
 *
 * Expired records are dropped when their key is claimed again, and swept in bulk every
 * SWEEP_EVERY claims: completion re-inserts a record at the end of the Map, so records
 * sit in completion order and the sweep stops at the first live one. A waiter on a
 * running record gets a promise made only when someone actually waits.
 */
import type { Clock } from "../clock";
import type { ClaimResult, IdempotencyStore } from "./idempotency-store";

interface RunningRecord {
  done: false;
  fingerprint: string;
  settled?: Promise<void>;
  wake?: () => void;
}

interface DoneRecord {
  done: true;
  fingerprint: string;
  value: unknown;
  expiresAt: number;
}

const SWEEP_EVERY = 1024;
const CLAIMED: ClaimResult = { kind: "claimed" };

export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, RunningRecord | DoneRecord>();
  private claimsUntilSweep = SWEEP_EVERY;

  constructor(private readonly clock: Clock) {}

  claim(key: string, fingerprint: string): ClaimResult {
    if (--this.claimsUntilSweep === 0) this.sweep();
    const rec = this.records.get(key);
    if (rec !== undefined) {
      if (!rec.done) {
        rec.settled ??= new Promise<void>((resolve) => (rec.wake = resolve));
        return { kind: "running", fingerprint: rec.fingerprint, settled: rec.settled };
      }
      if (rec.expiresAt > this.clock.now()) return { kind: "done", fingerprint: rec.fingerprint, value: rec.value };
    }
    this.records.set(key, { done: false, fingerprint });
    return CLAIMED;
  }

  complete(key: string, fingerprint: string, value: unknown, ttlMs: number): void {
    const rec = this.records.get(key);
    this.records.delete(key);
    this.records.set(key, { done: true, fingerprint, value, expiresAt: this.clock.now() + ttlMs });
    if (rec && !rec.done) rec.wake?.();
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
