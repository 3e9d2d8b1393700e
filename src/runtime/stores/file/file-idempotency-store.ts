/**
 * The file idempotency store (spec §11 `backend: "file"`): records that outlive the process
 * and are shared by the processes of one machine.
 *
 * Layout, for `path` = `.luma-idempotency.json`:
 *   .luma-idempotency.json          the versioned envelope of done records (envelope.ts)
 *   .luma-idempotency.json.lock     the exclusive lock (file-lock.ts, flock)
 *   .luma-idempotency.json.claims   the table of running keys (claim-table.ts)
 *
 * Every operation runs under the lock and is synchronous, so it is atomic against other
 * processes and needs no in-process queue. A claim reads the claim table (which also names
 * the envelope's current write_id), re-reads the envelope only if another process wrote it
 * since, and adds its claim when the key is free: no durable write. `complete` drops the
 * claim and does the one durable write of the call (temp + fsync + rename + directory
 * fsync, durable-write.ts), so anyone who sees the claim gone finds the record. A caller that meets a running
 * claim of another process looks at the table again now and then until the claim is gone
 * or stale (owner dead, or lease passed), then claims again.
 *
 * At open: a missing file (and its directory) is created. A file that cannot be trusted —
 * corrupt, tampered (a GCM tag that does not verify), empty, truncated, a symbolic link, a
 * FIFO or device, larger than MAX_ENVELOPE_BYTES (read-envelope-file.ts) — a wrong key, a
 * newer version, an encrypted file without encryption configured, or a path that cannot be
 * created, read or written (probed before any handler runs) stop the program and leave the
 * file as it is: never a silent reset, which would run again every call the file records.
 * Resetting is a deliberate act (`luma store reset`). Expired records, claims of dead
 * processes and temp files of dead writers are purged. The refusals are worded as the
 * record stores word them (store-header.ts), and waiting on a running claim is theirs too
 * (claim-waiters.ts).
 *
 * The whole envelope is rewritten on every completion: simple and crash-safe, at a cost
 * that grows with the number of live records (see docs/stores.md, Figures). It is a store for
 * one machine, not a transactional backend for a pool of machines.
 *
 * What one call costs beyond the durable write itself, and why each part stays:
 *   claim     lock, read table, write table, unlock. The lock makes claim atomic across
 *             processes; the table write *is* the in-flight record (others must see it
 *             before the handler runs). No lock is held across the handler, so complete
 *             needs its own round trip.
 *   complete  lock, read table (the claim may have been taken over after its lease: the
 *             fencing check, and other processes' claims to keep), stat the envelope,
 *             write table, durable write, unlock. The table is written before the envelope
 *             (its write_id must never name a version older than the file's: see persist).
 * Cut, with the guarantees unchanged:
 *   - The envelope's header was read (open + read + close) before each rewrite; now one
 *     stat compares the path with the version held open in memory (envelope-pin.ts) —
 *     which also catches a replacement that kept the same write_id.
 *   - The directory is opened once and kept for the directory fsync (durable-write.ts).
 *   - The new version's descriptor is kept (it is the pin) rather than closed and reopened.
 *   - Unencrypted, the claim's fingerprint digest and the record's are one SHA-256.
 * Measured and left: the claim table in a shared memory map (reads after each fsync were
 * slower than pread, and an interrupted copy could tear the table where a pwrite cannot);
 * closing the replaced version off-thread (its inode free then contends with the next
 * fsync). What remains above the bare write loop is mostly the claim's table round trip,
 * whose first syscalls after each fsync's wake-up run several times slower than warm ones.
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { isLumaError, runtimeError, startupError } from "../../../diagnostics/luma-error";
import type { Clock } from "../../base/clock";
import { ClaimWaiters } from "../claim-waiters";
import type { ClaimRequest, ClaimResult, ClaimToken, IdempotencyStore } from "../idempotency-store";
import { DONE_CONFLICT, RUNNING_CONFLICT } from "../record-row";
import { requirePassphrase, storeRefusal } from "../store-header";
import { holderRunsHere, ownedToken } from "../claim-owner";
import { ClaimTable, type Claim, type TableState } from "./claim-table";
import { crashPoint } from "../../base/crash-points";
import { probeWritable, staleTempFiles, unlinkQuietly, writeFileDurably } from "./durable-write";
import { decodeEnvelope, encodeEnvelope, encryptedKdf, newWriteId, parseEnvelope, type Records } from "./envelope";
import { EnvelopePin } from "./envelope-pin";
import { fileRefusal } from "./unreadable-envelope";
import { EnvelopeRefused, MAX_ENVELOPE_BYTES } from "./read-envelope-file";
import { deriveKeys, digestOf, newKdfParams, type StoreKeys } from "./envelope-cipher";
import { FileLock } from "./file-lock";
import { isProcessAlive } from "./process-alive";

export interface FileStoreOptions {
  /** Absolute path of the envelope file. */
  path: string;
  /** How messages name the file (the path as configured). */
  displayPath?: string;
  encryption?: "aes-256-gcm";
  /** The value of LUMA_IDEMPOTENCY_KEY. Never stored, never printed. */
  passphrase?: string;
  clock: Clock;
  /** How long to wait for a live lock holder before failing (default 10 s). */
  lockWaitMs?: number;
}

class FileClaimToken {
  constructor(
    /** Names the claim file. */
    readonly digest: string,
    readonly claim: Claim,
    /** The fingerprint digest the done record keeps. */
    readonly recordFp: string,
  ) {}
}

const POLL = { firstMs: 2, maxMs: 50 };

/**
 * A claim's fencing token: 122 random bits (a random UUID, the cheapest random text Bun
 * makes), stamped with this process (claim-owner.ts), so a blocked owner is seen alive.
 */
const newToken = (): string => ownedToken(crypto.randomUUID());

export class FileIdempotencyStore implements IdempotencyStore {
  private records: Records = new Map();
  /** write_id of the envelope `records` was read from (or last written); undefined = reload. */
  private writeId: string | undefined = undefined;
  private readonly lock: FileLock;
  private readonly claims: ClaimTable;
  /** The envelope version `records` came from, held open (envelope-pin.ts). */
  private readonly pin = new EnvelopePin();
  /** The store's directory, opened once: each durable write fsyncs it. */
  private readonly dirFd: number;
  private readonly shown: string;
  /** Claims this store holds wake their in-process waiters; others' claims are polled. */
  private readonly waiters = new ClaimWaiters(POLL);
  private closed = false;

  private constructor(
    private readonly opts: FileStoreOptions,
    private keys: StoreKeys | undefined,
  ) {
    this.shown = opts.displayPath ?? opts.path;
    this.lock = new FileLock(`${opts.path}.lock`, opts.lockWaitMs);
    try {
      this.claims = new ClaimTable(`${opts.path}.claims`);
    } catch (e) {
      this.lock.close();
      throw e;
    }
    try {
      this.dirFd = openSync(dirname(opts.path), "r");
    } catch (e) {
      this.claims.close();
      this.lock.close();
      throw e;
    }
  }

  /** Opens (or creates) the store; its errors are startup errors (the program does not run). */
  static open(opts: FileStoreOptions): FileIdempotencyStore {
    requirePassphrase(opts);
    const shown = opts.displayPath ?? opts.path;
    // Its own message: a missing parent that cannot be made is the usual misconfiguration.
    try {
      mkdirSync(dirname(opts.path), { recursive: true });
    } catch (e) {
      throw startupError(`Idempotency store ${shown}: cannot create its directory: ${(e as Error).message}`, { catalogCode: "E0608" });
    }
    let store: FileIdempotencyStore | undefined;
    try {
      store = new FileIdempotencyStore(opts, undefined);
      const opened = store;
      opened.lock.with(() => opened.openLocked());
      return opened;
    } catch (e) {
      store?.close();
      throw isLumaError(e) ? e : startupError(`Idempotency store ${shown}: cannot open it: ${(e as Error).message}`, { catalogCode: "E0608" });
    }
  }

  claim(req: ClaimRequest): ClaimResult {
    return this.lock.with(() => {
      const table = this.claims.read();
      this.refresh(table.writeId);
      const now = this.opts.clock.now();
      const rec = this.records.get(req.key);
      // Inside the envelope (sealed when encrypted) a plain digest is enough; the claim
      // table lies in the open, so its digests are keyed (see digestOf).
      if (rec !== undefined && rec.exp > now) {
        return rec.fp === digestOf(undefined, req.fingerprint) ? { kind: "done", value: rec.value } : DONE_CONFLICT;
      }
      const fp = digestOf(this.keys, req.fingerprint);
      // Unencrypted, the claim's digest and the record's are the same SHA-256: made once.
      const recordFp = this.keys === undefined ? fp : digestOf(undefined, req.fingerprint);
      const digest = digestOf(this.keys, req.key);
      const existing = table.claims.get(digest);
      if (existing !== undefined && !this.isStale(existing, now)) {
        return existing.fp === fp ? { kind: "running", settled: this.whenSettled(digest, existing.token) } : RUNNING_CONFLICT;
      }
      // Free, or held by a dead owner / past its lease: ours now (we hold the lock, so no one else takes it too).
      const claim: Claim = { pid: process.pid, token: newToken(), fp, leaseUntil: now + req.leaseMs };
      table.claims.set(digest, claim);
      this.claims.write(table);
      crashPoint("after-claim");
      this.waiters.own(claim.token);
      return { kind: "claimed", token: new FileClaimToken(digest, claim, recordFp) };
    });
  }

  complete(key: string, token: ClaimToken, value: unknown, ttlMs: number): void {
    const { digest, claim, recordFp } = token as FileClaimToken;
    try {
      this.lock.with(() => {
        const table = this.claims.read();
        // About to rewrite the whole file: trust the file itself, not just the table — the
        // version held in memory must be the one the path names (envelope-pin.ts).
        this.refreshFromFile();
        // Fenced: our claim passed its lease and another caller took the key over (and may
        // have finished with it): only the holder of the claim's token records a result.
        if (table.claims.get(digest)?.token !== claim.token) return;
        this.records.set(key, { fp: recordFp, exp: this.opts.clock.now() + ttlMs, value });
        table.claims.delete(digest);
        this.persist(table);
      });
    } finally {
      this.waiters.settle(claim.token);
    }
  }

  release(_key: string, token: ClaimToken): void {
    const { digest, claim } = token as FileClaimToken;
    try {
      this.lock.with(() => {
        const table = this.claims.read();
        if (table.claims.get(digest)?.token === claim.token && table.claims.delete(digest)) this.claims.write(table);
      });
    } finally {
      this.waiters.settle(claim.token);
    }
  }

  renew(_key: string, token: ClaimToken, leaseMs: number): boolean {
    const { digest, claim } = token as FileClaimToken;
    return this.lock.with(() => {
      const table = this.claims.read();
      const held = table.claims.get(digest);
      const now = this.opts.clock.now();
      if (held?.token !== claim.token || held.leaseUntil <= now) return false;
      held.leaseUntil = now + leaseMs;
      this.claims.write(table);
      return true;
    });
  }

  /**
   * Idempotent: a harness (or a caller's finally) may close twice, and a second close of a
   * descriptor number that another open has reused since would close that file instead.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pin.release();
    closeSync(this.dirFd);
    this.claims.close();
    this.lock.close();
  }

  /** Done records as the file holds them now (tests and diagnostics). */
  snapshot(): Records {
    return this.lock.with(() => {
      this.refreshFromFile();
      return new Map(this.records);
    });
  }

  // ——— under the lock ———

  private openLocked(): void {
    const o = this.opts;
    const text = this.readEnvelope((why) => startupError(why, { catalogCode: "E0609" }));
    if (o.encryption !== undefined) {
      const doc = text === undefined ? undefined : parseEnvelope(text);
      this.keys = deriveKeys(o.passphrase!, (doc && encryptedKdf(doc)) ?? newKdfParams());
    }
    let dirty = text === undefined;
    if (text !== undefined) {
      const decoded = decodeEnvelope(text, this.keys);
      if (decoded.kind === "ok") {
        this.records = decoded.records;
        this.writeId = decoded.writeId;
        dirty = decoded.encrypted !== (this.keys !== undefined); // a plain file is sealed on first open with a key
      } else {
        this.pin.release();
        throw startupError(fileRefusal(this.shown, decoded), { catalogCode: "E0609" });
      }
    }
    const now = o.clock.now();
    for (const [key, rec] of this.records) {
      if (rec.exp <= now) {
        this.records.delete(key);
        dirty = true;
      }
    }
    const table = this.claims.read();
    for (const [digest, claim] of table.claims) if (this.isStale(claim, now)) table.claims.delete(digest);
    // Written now, or (nothing to write yet) proven writable: a store that cannot be written
    // stops the program here, not a completed call after its handler ran.
    try {
      if (dirty) this.persist(table);
      else probeWritable(o.path);
    } catch (e) {
      throw startupError(`Idempotency store ${this.shown} cannot be written (${(e as Error).message}); a completed call could not be recorded, so nothing was run.`, { catalogCode: "E0608" });
    }
    if (!dirty) this.claims.write({ writeId: this.writeId, claims: table.claims });
    for (const temp of staleTempFiles(o.path, isProcessAlive)) unlinkQuietly(temp);
  }

  /** Re-reads the envelope unless `writeId` (the claim table's) says it is the one already in memory. */
  private refresh(writeId: string | undefined): void {
    if (this.writeId !== undefined && writeId === this.writeId) return;
    this.reload();
  }

  /** Re-reads the envelope unless the path still names the version held in memory (envelope-pin.ts). */
  private refreshFromFile(): void {
    if (this.writeId !== undefined && this.pin.isCurrent(this.opts.path)) return;
    this.reload();
  }

  private reload(): void {
    const text = this.readEnvelope((why) => runtimeError("RUNTIME_ERROR", why));
    if (text === undefined) {
      this.records = new Map(); // deleted under us: start over, and write it back on the next completion
      this.writeId = undefined;
      return;
    }
    const decoded = decodeEnvelope(text, this.keys);
    if (decoded.kind === "ok") {
      this.records = decoded.records;
      this.writeId = decoded.writeId;
      return;
    }
    this.pin.release(); // not a version we hold in memory
    this.writeId = undefined;
    // Damaged while open: this call fails and the file stays as it is, like at start-up.
    throw runtimeError("RUNTIME_ERROR", fileRefusal(this.shown, decoded));
  }

  /**
   * The envelope's text (undefined: no file), read bounded and only from a regular file;
   * an entry that is refused becomes `fail`'s error, the file left as it is.
   */
  private readEnvelope(fail: (why: string) => Error): string | undefined {
    try {
      return this.pin.readAndHold(this.opts.path);
    } catch (e) {
      if (!(e instanceof EnvelopeRefused)) throw e;
      this.pin.release();
      this.writeId = undefined;
      throw fail(storeRefusal.untrusted(this.shown, e.problem));
    }
  }

  /**
   * Writes the live records durably (dropping expired ones), with the table saying which
   * write_id to expect. The table goes first: a crash between the two leaves a table that
   * names a write the file does not have, which only makes readers re-read the file; the
   * other order could leave them trusting a stale copy.
   */
  private persist(table: TableState): void {
    const now = this.opts.clock.now();
    for (const [key, rec] of this.records) if (rec.exp <= now) this.records.delete(key);
    const writeId = newWriteId();
    this.writeId = undefined; // if the write fails, re-read the file next time
    const bytes = Buffer.from(encodeEnvelope(this.records, writeId, this.keys));
    // Never write what the next open would refuse to read (read-envelope-file.ts).
    if (bytes.length > MAX_ENVELOPE_BYTES) {
      throw runtimeError(
        "RUNTIME_ERROR",
        `Idempotency store ${this.shown} cannot record this call: the file would be ${bytes.length} bytes, more than a file store reads (${MAX_ENVELOPE_BYTES} bytes); use the sqlite, postgres or redis backend.`,
      );
    }
    this.claims.write({ writeId, claims: table.claims });
    // Let go of the old version first, so the rename frees its inode (as a plain rename-over
    // does), inside the write rather than after it; the lock keeps other writers out meanwhile.
    this.pin.release();
    this.pin.hold(writeFileDurably(this.opts.path, bytes, this.dirFd));
    this.writeId = writeId;
  }

  // ——— waiting for a running claim ———

  /**
   * A claim is stale when its owner is dead, or its lease passed and its owner is neither a
   * claim this store holds nor a process still running here (claim-owner.ts): an owner whose
   * handler blocks its event loop past the lease keeps its key; a stopped one loses it.
   */
  private isStale(claim: Claim, now: number): boolean {
    if (!isProcessAlive(claim.pid)) return true;
    if (claim.leaseUntil > now) return false;
    return !(this.waiters.holds(claim.token) || holderRunsHere(claim.token));
  }

  /** Resolves once the claim is gone, replaced or stale; the caller then claims again. */
  private whenSettled(digest: string, token: string): Promise<void> {
    return this.waiters.whenSettled(token, () => {
      // Closed under a waiter: stop polling (its descriptors are gone, their numbers may be
      // another file's now); the waiter's next claim meets the closed store.
      if (this.closed) return false;
      // A stuck lock throws: the waiter resolves and its next claim reports it.
      const now = this.lock.with(() => this.claims.read().claims.get(digest));
      return now !== undefined && now.token === token && !this.isStale(now, this.opts.clock.now());
    });
  }
}

