/**
 * The contract every idempotency backend implements (spec §11), with the same semantics
 * on each: memory, file, sqlite, postgres and redis (open-idempotency-store.ts picks one).
 *
 * The pipeline calls `claim` before running the handler. A claim is atomic: it either
 * finds a live record (done, or still running) or writes an in-flight record that makes
 * the caller the one who runs. The caller then calls `complete` with the validated output,
 * or `release` when the call failed (errors are not stored, so the same key may run again).
 *
 * In-flight records carry a lease (`leaseMs`, the in-progress expiry): a claim whose owner
 * died without completing or releasing is taken over once the lease has passed (a backend
 * that can tell its owner is dead, like the file store, takes it over at once). A live
 * owner keeps its claim for as long as its handler runs by renewing the lease (`renew`, a
 * heartbeat: tools/steps/claim-heartbeat.ts) — also after the call timed out, because a handler
 * that ignored its AbortSignal may still do its side effect (tools/steps/timed-out-claim.ts). The
 * `token` a claim returns fences the owner: `renew`, `complete` and `release` with a token
 * whose claim was taken over change nothing, so a worker that lost its lease (frozen, cut
 * off from the store) never overwrites the winner's record nor extends the winner's lease.
 *
 * The store compares fingerprints itself (`conflict`), so a backend may keep a digest of
 * the fingerprint rather than the text. `fingerprint` is the canonical JSON of the
 * validated input. Methods may answer synchronously (memory, file) or with a promise
 * (network backends); the pipeline handles both.
 */

/** Opaque to the pipeline: what a backend needs to recognise its own claim. */
export type ClaimToken = object;

export type ClaimResult =
  /** No live record: the caller now holds an in-flight record and must complete or release it. */
  | { kind: "claimed"; token: ClaimToken }
  /** A finished call with this key and the same fingerprint: its stored output. */
  | { kind: "done"; value: unknown }
  /**
   * A call with this key and the same fingerprint is running: `settled` resolves when it
   * completes or is released (or its owner is found dead), and the caller claims again.
   */
  | { kind: "running"; settled: Promise<void> }
  /** A record with this key (done, or running when `running`) holds another fingerprint. */
  | { kind: "conflict"; running: boolean };

type MaybePromise<T> = T | Promise<T>;

export interface ClaimRequest {
  key: string;
  fingerprint: string;
  /** Lifetime of the done record, from completion. */
  ttlMs: number;
  /** In-progress expiry: how long the in-flight record protects a claim whose owner is silent. */
  leaseMs: number;
}

export interface IdempotencyStore {
  claim(req: ClaimRequest): MaybePromise<ClaimResult>;
  /** Stores the output under the claim's key and fingerprint; the record lives `ttlMs` from now. */
  complete(key: string, token: ClaimToken, value: unknown, ttlMs: number): MaybePromise<void>;
  /** Drops the in-flight record of a failed call. */
  release(key: string, token: ClaimToken): MaybePromise<void>;
  /**
   * Heartbeat: moves the in-flight record's lease to `leaseMs` from now. True while the
   * token still holds its key as a running claim whose lease has not passed; false once
   * the claim is lost (taken over, completed, released, or its lease passed) — then
   * nothing changes, and the caller stops renewing.
   */
  renew(key: string, token: ClaimToken, leaseMs: number): MaybePromise<boolean>;
  /**
   * Also renews the claim's lease off the main thread (off-thread-renewal.ts: a worker with
   * its own connection), so a handler that blocks the thread does not let the lease pass;
   * answers the function that stops it. Stores shared between machines (postgres, redis)
   * implement it; on one machine the stores check the owner's process instead (claim-owner.ts).
   */
  renewOffThread?(key: string, token: ClaimToken, leaseMs: number): (() => void) | undefined;
  /** Frees what the store holds (file descriptors, connections); the store is not used after. */
  close?(): MaybePromise<void>;
}
