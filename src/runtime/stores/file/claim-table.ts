/**
 * The file store's shared table (`<store>.claims`): the keys now running (in-flight
 * claims) and the write_id of the envelope the last writer committed. Read and rewritten in
 * place under the store lock.
 *
 * Claims live here rather than in the envelope so that a claim costs no durable rewrite of
 * the whole store; the table is one file with a fixed inode — rewritten with pwrite, never
 * created, renamed, truncated or unlinked per operation — because that metadata churn
 * (a file per claim) cost more than the rest of a claim (measured: it held the store at
 * 0.6× the bare fsync loop). Holding the write_id here lets a claim see whether the
 * envelope changed without opening it.
 *
 * Format: one line of JSON, `{"w":"<write_id>","c":{"<key digest>":{…claim…},…}}`, then
 * "\n". A rewrite writes the new line from offset 0 and leaves any longer old content after
 * it: readers stop at the first newline (the file is truncated only when the junk grows
 * large). No fsync: after a machine crash every claimer is dead anyway, and an unreadable
 * table is an empty one — which is what a dead owner's claim means: the key is free.
 *
 * A claim names its owner's pid, a random token (fencing: only the holder of the token may
 * complete or release it) and the end of its lease (the in-progress expiry). Keys and
 * fingerprints appear only as digests (keyed when the store is encrypted).
 */
import { closeSync, fstatSync, ftruncateSync, readSync, writeSync } from "node:fs";
import { openOwnFile } from "./open-own-file";

export interface Claim {
  pid: number;
  token: string;
  /** Digest of the input fingerprint. */
  fp: string;
  /** Epoch ms: past this the claim no longer protects its key. */
  leaseUntil: number;
}

export type Claims = Map<string, Claim>;

export interface TableState {
  /** The write_id the envelope should carry; undefined when unknown (reload the envelope). */
  writeId: string | undefined;
  claims: Claims;
}

const READ_AHEAD = 16 * 1024;
const TRUNCATE_OVER = 64 * 1024;

const isClaim = (c: unknown): c is Claim => {
  const o = c as Claim;
  return (
    o !== null && typeof o === "object" && Number.isInteger(o.pid) && typeof o.token === "string" && typeof o.fp === "string" && typeof o.leaseUntil === "number"
  );
};

export class ClaimTable {
  private readonly fd: number;
  private readonly buf = Buffer.allocUnsafe(READ_AHEAD);

  constructor(readonly path: string) {
    this.fd = openOwnFile(path);
  }

  /** The table as the file holds it; the caller holds the store lock. */
  read(): TableState {
    const state: TableState = { writeId: undefined, claims: new Map() };
    let buf = this.buf;
    let n = readSync(this.fd, buf, 0, buf.length, 0);
    let end = buf.indexOf(0x0a);
    if ((end < 0 || end >= n) && n === buf.length) {
      buf = Buffer.allocUnsafe(fstatSync(this.fd).size);
      n = readSync(this.fd, buf, 0, buf.length, 0);
      end = buf.indexOf(0x0a);
    }
    if (end < 0 || end >= n) return state;
    try {
      const doc = JSON.parse(buf.toString("utf8", 0, end));
      if (typeof doc.w === "string") state.writeId = doc.w;
      for (const [digest, c] of Object.entries(doc.c ?? {})) if (isClaim(c)) state.claims.set(digest, c);
    } catch {
      // unreadable: no live claims, envelope unknown (see above)
    }
    return state;
  }

  /** Replaces the table; the caller holds the store lock. */
  write(state: TableState): void {
    const bytes = Buffer.from(JSON.stringify({ w: state.writeId ?? null, c: Object.fromEntries(state.claims) }) + "\n");
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off, off);
    if (bytes.length < READ_AHEAD && fstatSizeOver(this.fd, TRUNCATE_OVER)) ftruncateSync(this.fd, bytes.length);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Only checked once the table itself is small: a cheap guard against junk piling up. */
let writesSinceCheck = 0;
const fstatSizeOver = (fd: number, limit: number): boolean => {
  if (++writesSinceCheck < 256) return false;
  writesSinceCheck = 0;
  return fstatSync(fd).size > limit;
};
