/**
 * One idempotency record as the record stores (sqlite, postgres) keep it, and what a claim
 * makes of a live one. A record is live until `until`: for a done record that is its TTL's
 * end, for a running one its lease's end (the in-progress expiry). A record past `until`
 * is as good as absent: the next claim replaces it — except a running record whose owner
 * still runs (`holderAlive`: a claim this store holds, or a process on this machine,
 * claim-owner.ts), which stays running past its lease: its heartbeat may have been held up
 * by a handler that blocks the owner's thread.
 */
import { ownedToken } from "./claim-owner";
import type { ClaimResult } from "./idempotency-store";

export interface RecordRow {
  /** Fingerprint id (record-codec.ts). */
  fp: string;
  done: boolean;
  /** The claim's fencing token; a done record keeps its owner's. */
  token: string;
  /** Epoch ms. */
  until: number;
  /** Encoded value (done records only). */
  value: string | null;
}

/** What a claim finds in a live record; `running` carries the holder's token for waiting. */
export type LiveFinding =
  | { kind: "done"; value: string }
  | { kind: "running"; token: string }
  | { kind: "conflict"; running: boolean };

export const DONE_CONFLICT: ClaimResult = { kind: "conflict", running: false };
export const RUNNING_CONFLICT: ClaimResult = { kind: "conflict", running: true };

/** undefined: no live record (absent, or past `until` with no live owner), so the key is free to claim. */
export const findLive = (row: RecordRow | undefined, fpId: string, now: number, holderAlive: (token: string) => boolean): LiveFinding | undefined => {
  if (row === undefined || (row.until <= now && (row.done || !holderAlive(row.token)))) return undefined;
  if (row.fp !== fpId) return { kind: "conflict", running: !row.done };
  return row.done ? { kind: "done", value: row.value ?? "null" } : { kind: "running", token: row.token };
};

/** A random fencing token (128 bits) that names its owner process (claim-owner.ts). */
export const newClaimToken = (): string => {
  const a = new Uint32Array(4);
  crypto.getRandomValues(a);
  return ownedToken(Array.from(a, (n) => n.toString(16).padStart(8, "0")).join(""));
};

/**
 * How long a server keeps a running record past its lease before it may drop it unasked
 * (sweeps, Redis's own expiry): a claim is never taken over while its owner runs on this
 * machine, so the record must outlive the lease; a dead owner's record is taken over by the
 * next claim of its key anyway. An owner blocked longer than this past its lease loses it.
 */
export const RUNNING_RECORD_GRACE_MS = 60 * 60 * 1000;
