/**
 * The default idempotency store: process-local records in a Map (spec §11 `memory`).
 *
 * Expiry without a sweep: records sit in the Map in claim order, which is not expiry order
 * (tools have different TTLs, and calls finish in any order). But records that share a
 * TTL expire in the order they completed, so each TTL gets a FIFO queue, linked through the
 * records themselves (no allocation), that a record joins when it completes. Every
 * completion drops the expired heads of its own queue and of one other queue, taken in
 * turn: amortised O(1) per call, no scan of live records, and one long-TTL record never
 * shields a short-TTL one (they are in different queues). A record claimed again after it
 * expired is replaced at once (the queue skips the dead entry later). (The previous design
 * walked the whole Map with a cursor every 1,024 claims; its iterator allocated per record
 * and cost ~7% of an idempotent call.)
 *
 * Leases: an in-flight record here cannot outlive its owner (they share the process, and
 * the pipeline completes or releases every claim once its handler settles), so `leaseMs`
 * is not needed and `renew` only says whether the claim is still held (the pipeline sends
 * this store no heartbeat). The claim's token is the record itself, and a record knows whether it is
 * still the one its key maps to (`live`): a record dropped (released, expired, replaced) is
 * not touched by a late `complete` or `release` holding it — the fencing check costs a
 * field read rather than a second Map lookup. A waiter on a running record gets a promise
 * made only when someone actually waits.
 *
 * Fingerprints: a request marked `immutableFingerprint` (the pipeline's, tools/steps/claim-request.ts)
 * never changes, so the record keeps the request rather than its text, and the text is
 * written only if a later claim of the same key compares it. A claim of a fresh key — the
 * usual case — then never writes a fingerprint at all. Any other request's text is read at
 * once (its caller may reuse the object).
 */
import type { Clock } from "../base/clock";
import type { ClaimRequest, ClaimResult, ClaimToken, IdempotencyStore } from "./idempotency-store";

/** The claim's fingerprint: its text, or the unchanging request that writes it on demand. */
type FingerprintSource = string | ClaimRequest;

const sourceOf = (req: ClaimRequest): FingerprintSource =>
  (req as { immutableFingerprint?: boolean }).immutableFingerprint === true ? req : req.fingerprint;

const sameFingerprint = (rec: IdempotencyRecord, req: ClaimRequest): boolean => {
  const fp = rec.fingerprint;
  return (typeof fp === "string" ? fp : fp.fingerprint) === req.fingerprint;
};

/**
 * One record, mutated in place from running to done (no Map churn on completion). A fresh
 * record is also the `claimed` result of its claim (its token is itself): `kind` and `token`
 * are prototype getters, so this costs no allocation and no field.
 */
class IdempotencyRecord {
  done = false;
  /** Whether the Map still maps `key` to this record; false once dropped, for good. */
  live = true;
  value: unknown = undefined;
  expiresAt = Infinity;
  settled: Promise<void> | undefined = undefined;
  wake: (() => void) | undefined = undefined;
  /** The next record of its TTL's expiry queue. */
  nextExpiring: IdempotencyRecord | undefined = undefined;
  constructor(
    readonly key: string,
    readonly fingerprint: FingerprintSource,
  ) {}

  get kind(): "claimed" {
    return "claimed";
  }

  get token(): ClaimToken {
    return this;
  }
}

/** Done records of one TTL, oldest completion first (so soonest expiry first). */
class ExpiryQueue {
  head: IdempotencyRecord | undefined = undefined;
  tail: IdempotencyRecord | undefined = undefined;
  constructor(readonly ttlMs: number) {}
}

const RUNNING_CONFLICT: ClaimResult = { kind: "conflict", running: true };
const DONE_CONFLICT: ClaimResult = { kind: "conflict", running: false };

export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();
  private readonly queues: ExpiryQueue[] = [];
  /** The queue of the last completion: calls of one tool hit it without a search. */
  private lastQueue: ExpiryQueue | undefined = undefined;
  /** Which other queue the next completion also drains (round robin). */
  private turn = 0;

  constructor(private readonly clock: Clock) {}

  claim(req: ClaimRequest): ClaimResult {
    const rec = this.records.get(req.key);
    if (rec !== undefined) {
      if (!rec.done) {
        if (!sameFingerprint(rec, req)) return RUNNING_CONFLICT;
        rec.settled ??= new Promise<void>((resolve) => (rec.wake = resolve));
        return { kind: "running", settled: rec.settled };
      }
      if (rec.expiresAt > this.clock.now()) {
        return sameFingerprint(rec, req) ? { kind: "done", value: rec.value } : DONE_CONFLICT;
      }
      this.drop(rec); // expired: the new record goes to the end, in claim order
    }
    const fresh = new IdempotencyRecord(req.key, sourceOf(req));
    this.records.set(req.key, fresh);
    return fresh;
  }

  /**
   * `now`: a reading of this store's own clock just taken by the caller (the pipeline passes
   * the one that also ends its trace, only to a store it made with that clock).
   */
  complete(_key: string, token: ClaimToken, value: unknown, ttlMs: number, now?: number): void {
    const rec = token as IdempotencyRecord;
    if (!rec.live || rec.done) return; // fenced: the claim was dropped meanwhile (or already completed)
    now ??= this.clock.now();
    rec.done = true;
    rec.value = value;
    rec.expiresAt = now + ttlMs;
    const queue = this.queueOf(ttlMs);
    if (queue.tail === undefined) queue.head = rec;
    else queue.tail.nextExpiring = rec;
    queue.tail = rec;
    this.dropExpired(queue, now);
    if (this.queues.length > 1) this.dropExpired(this.queues[(this.turn = (this.turn + 1) % this.queues.length)], now);
    rec.wake?.();
  }

  release(_key: string, token: ClaimToken): void {
    const rec = token as IdempotencyRecord;
    if (rec.live && !rec.done) {
      this.drop(rec);
      rec.wake?.();
    }
  }

  renew(_key: string, token: ClaimToken): boolean {
    const rec = token as IdempotencyRecord;
    return rec.live && !rec.done;
  }

  /** Live records, for tests and diagnostics. */
  get size(): number {
    return this.records.size;
  }

  private drop(rec: IdempotencyRecord): void {
    rec.live = false;
    this.records.delete(rec.key);
  }

  private queueOf(ttlMs: number): ExpiryQueue {
    const last = this.lastQueue;
    if (last !== undefined && last.ttlMs === ttlMs) return last;
    let queue = this.queues.find((q) => q.ttlMs === ttlMs);
    if (queue === undefined) this.queues.push((queue = new ExpiryQueue(ttlMs)));
    return (this.lastQueue = queue);
  }

  /** Drops the queue's expired heads; entries already dropped (replaced after expiry) are skipped. */
  private dropExpired(queue: ExpiryQueue, now: number): void {
    let rec = queue.head;
    while (rec !== undefined && rec.expiresAt <= now) {
      if (rec.live) this.drop(rec);
      const next = rec.nextExpiring;
      rec.nextExpiring = undefined;
      rec = next;
    }
    queue.head = rec;
    if (rec === undefined) queue.tail = undefined;
  }
}
