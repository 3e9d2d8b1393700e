/**
 * The contract every idempotency backend implements (spec §11): memory now; file, sqlite,
 * postgres and redis later, with the same semantics.
 *
 * The pipeline calls `claim` before running the handler. A claim is atomic: it either
 * finds a live record (done, or still running) or writes an in-flight record that makes
 * the caller the one who runs. The caller then calls `complete` with the validated output,
 * or `release` when the call failed (errors are not stored, so the same key may run again).
 *
 * `fingerprint` is the canonical JSON of the validated input; a backend may store a digest
 * of it instead. Methods may answer synchronously (memory) or with a promise (I/O backends).
 */

export type ClaimResult =
  /** No live record: the caller now holds an in-flight record and must complete or release it. */
  | { kind: "claimed" }
  /** A finished call with this key: its fingerprint and stored output. */
  | { kind: "done"; fingerprint: string; value: unknown }
  /** A call with this key is running: `settled` resolves when it completes or is released. */
  | { kind: "running"; fingerprint: string; settled: Promise<void> };

type MaybePromise<T> = T | Promise<T>;

export interface IdempotencyStore {
  /** `ttlMs` bounds an in-flight record's lease in stores shared between processes. */
  claim(key: string, fingerprint: string, ttlMs: number): MaybePromise<ClaimResult>;
  /** Stores the output; the record lives `ttlMs` from now. */
  complete(key: string, fingerprint: string, value: unknown, ttlMs: number): MaybePromise<void>;
  /** Drops the in-flight record of a failed call. */
  release(key: string): MaybePromise<void>;
}
