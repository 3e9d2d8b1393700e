/**
 * One idempotency record as the record stores (sqlite, postgres) keep it, and what a claim
 * makes of a live one. A record is live until `until`: for a done record that is its TTL's
 * end, for a running one its lease's end (the in-progress expiry). A record past `until`
 * is as good as absent: the next claim replaces it.
 */
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

/** undefined: no live record (absent, or past `until`), so the key is free to claim. */
export const findLive = (row: RecordRow | undefined, fpId: string, now: number): LiveFinding | undefined => {
  if (row === undefined || row.until <= now) return undefined;
  if (row.fp !== fpId) return { kind: "conflict", running: !row.done };
  return row.done ? { kind: "done", value: row.value ?? "null" } : { kind: "running", token: row.token };
};

/** A random fencing token (128 bits). */
export const newClaimToken = (): string => {
  const a = new Uint32Array(4);
  crypto.getRandomValues(a);
  return Array.from(a, (n) => n.toString(16).padStart(8, "0")).join("");
};
