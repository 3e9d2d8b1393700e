/**
 * The SQLite idempotency store (spec §11 extension, `backend: "sqlite"`): one database file
 * shared by the processes of one machine, through Bun's built-in SQLite.
 *
 *   luma_idempotency_meta     the header (store-header.ts: format, version, encryption)
 *   luma_idempotency_records  one row per key: record-row.ts, ids and values by record-codec.ts
 *
 * WAL lets readers run beside the one writer; `busy_timeout` makes a process wait for the
 * write lock instead of failing. A claim is one IMMEDIATE transaction (it takes the write
 * lock first, so read-then-write cannot race another process): read the key's row, answer
 * from it when it is live, else write an in-flight row with a fresh token and a lease.
 * `complete` is one upsert fenced by the token; it alone runs with `synchronous = FULL`
 * (the WAL is fsynced), because only a done record must survive a power loss — a lost
 * claim means what a dead owner's claim means, the key is free.
 *
 * Everything is synchronous, like the file store: the pipeline takes no promise hop. A
 * waiter on another process's claim polls the row until it is gone, done or past its lease.
 * Leases are the only way a claim of a dead process ends (no pid checks: processes in other
 * containers sharing the file may have other pid namespaces). The other way round, a claim
 * past its lease is still running while its owner runs on this machine (claim-owner.ts):
 * a handler that blocks its thread stops the heartbeat, not the owner. Sweeps leave a
 * running row for RUNNING_RECORD_GRACE_MS past its lease, so that check can still find it.
 */
import { Database, type Statement } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { runtimeError, startupError, type LumaError } from "../../../diagnostics/luma-error";
import type { Clock } from "../../base/clock";
import { ClaimWaiters } from "../claim-waiters";
import type { ClaimRequest, ClaimResult, ClaimToken, IdempotencyStore } from "../idempotency-store";
import { RecordCodec } from "../record-codec";
import { holderRunsHere } from "../claim-owner";
import { DONE_CONFLICT, findLive, newClaimToken, RUNNING_CONFLICT, RUNNING_RECORD_GRACE_MS, type RecordRow } from "../record-row";
import { decideHeader, requirePassphrase, storeRefusal } from "../store-header";
import { createStoreFile, existingStoreFile, isUntrustedDatabase, OPEN_EXISTING, untrustedDatabase } from "./sqlite-store-file";

export interface SqliteStoreOptions {
  /** Absolute path of the database file. */
  path: string;
  /** How messages name the store (the path as configured). */
  displayPath?: string;
  encryption?: "aes-256-gcm";
  /** The value of LUMA_IDEMPOTENCY_KEY. Never stored, never printed. */
  passphrase?: string;
  clock: Clock;
  /** How long to wait for another process's write lock (default 10 s). */
  busyTimeoutMs?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS luma_idempotency_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS luma_idempotency_records (
  kd TEXT PRIMARY KEY, fp TEXT NOT NULL, done INTEGER NOT NULL, token TEXT NOT NULL,
  live_until INTEGER NOT NULL, value TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS luma_idempotency_records_live_until ON luma_idempotency_records (live_until);
`;

interface SqlRow {
  fp: string;
  done: number;
  token: string;
  live_until: number;
  value: string | null;
}

class SqliteClaim {
  constructor(
    readonly kd: string,
    readonly fp: string,
    readonly token: string,
  ) {}
}

const SWEEP_EVERY = 1024;
const POLL = { firstMs: 2, maxMs: 50 };

export class SqliteIdempotencyStore implements IdempotencyStore {
  private codec!: RecordCodec;
  private readonly waiters = new ClaimWaiters(POLL);
  private claimsUntilSweep = SWEEP_EVERY;
  private readonly shown: string;
  private readonly q: {
    row: Statement<SqlRow, [string]>;
    write: Statement<unknown, [string, string, number, string, number, string | null]>;
    complete: Statement<unknown, [string, string, string, number, string]>;
    release: Statement<unknown, [string, string]>;
    renew: Statement<unknown, [number, string, string, number]>;
    held: Statement<{ live_until: number }, [string, string]>;
    sweep: Statement<unknown, [number, number]>;
  };
  private readonly claimTx: (req: ClaimRequest, kd: string, fp: string) => ClaimResult;

  private constructor(
    private readonly db: Database,
    private readonly opts: SqliteStoreOptions,
  ) {
    this.shown = opts.displayPath ?? opts.path;
    const R = "luma_idempotency_records";
    this.q = {
      row: db.query(`SELECT fp, done, token, live_until, value FROM ${R} WHERE kd = ?`),
      write: db.query(`INSERT OR REPLACE INTO ${R} (kd, fp, done, token, live_until, value) VALUES (?, ?, ?, ?, ?, ?)`),
      // Fenced: stores when the key is ours or free; a row of another claim (taken over) wins.
      complete: db.query(
        `INSERT INTO ${R} (kd, fp, done, token, live_until, value) VALUES (?1, ?2, 1, ?3, ?4, ?5)
         ON CONFLICT (kd) DO UPDATE SET done = 1, live_until = excluded.live_until, value = excluded.value
         WHERE ${R}.token = excluded.token AND ${R}.done = 0`,
      ),
      release: db.query(`DELETE FROM ${R} WHERE kd = ? AND token = ? AND done = 0`),
      renew: db.query(`UPDATE ${R} SET live_until = ? WHERE kd = ? AND token = ? AND done = 0 AND live_until > ?`),
      held: db.query(`SELECT live_until FROM ${R} WHERE kd = ? AND token = ? AND done = 0`),
      // Done rows past their TTL; running rows only once long past their lease (see above).
      sweep: db.query(`DELETE FROM ${R} WHERE live_until <= ?1 AND (done = 1 OR live_until <= ?2)`),
    };
    this.claimTx = db.transaction((req: ClaimRequest, kd: string, fp: string) => this.claimLocked(req, kd, fp)).immediate;
  }

  /** Opens (or creates) the store; its errors are startup errors (the program does not run). */
  static open(opts: SqliteStoreOptions): SqliteIdempotencyStore {
    const shown = opts.displayPath ?? opts.path;
    requirePassphrase(opts);
    let db: Database;
    try {
      mkdirSync(dirname(opts.path), { recursive: true });
      // A file that cannot be a store is refused before SQLite reads it (sqlite-store-file.ts).
      if (!existingStoreFile(opts.path, shown)) {
        createStoreFile(opts.path, (fresh) => {
          fresh.exec("PRAGMA journal_mode = WAL");
          fresh.exec(SCHEMA);
        });
      }
      db = new Database(opts.path, OPEN_EXISTING);
      db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 10_000))}`);
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec(SCHEMA);
    } catch (e) {
      if ((e as LumaError).name === "LumaError") throw e;
      if (isUntrustedDatabase(e)) throw untrustedDatabase(shown, e);
      throw startupError(`Idempotency store ${shown}: cannot open it as a SQLite database: ${(e as Error).message}`, { catalogCode: "E0608" });
    }
    try {
      const store = new SqliteIdempotencyStore(db, opts);
      db.transaction(() => store.openLocked()).immediate();
      return store;
    } catch (e) {
      db.close();
      if (isUntrustedDatabase(e)) throw untrustedDatabase(shown, e);
      throw (e as LumaError).name === "LumaError" ? e : startupError(`Idempotency store ${shown}: cannot open it: ${(e as Error).message}`, { catalogCode: "E0608" });
    }
  }

  claim(req: ClaimRequest): ClaimResult {
    if (--this.claimsUntilSweep === 0) this.sweep();
    const kd = this.codec.idOf(req.key);
    return this.guard(() => this.claimTx(req, kd, this.codec.idOf(req.fingerprint)), true);
  }

  complete(_key: string, token: ClaimToken, value: unknown, ttlMs: number): void {
    const claim = token as SqliteClaim;
    try {
      const encoded = this.codec.encodeValue(claim.kd, value);
      this.guard(() => {
        this.db.exec("PRAGMA synchronous = FULL");
        try {
          this.q.complete.run(claim.kd, claim.fp, claim.token, this.opts.clock.now() + ttlMs, encoded);
        } finally {
          this.db.exec("PRAGMA synchronous = NORMAL");
        }
      }, false);
    } finally {
      this.waiters.settle(claim.token);
    }
  }

  release(_key: string, token: ClaimToken): void {
    const claim = token as SqliteClaim;
    try {
      this.guard(() => this.q.release.run(claim.kd, claim.token), false);
    } finally {
      this.waiters.settle(claim.token);
    }
  }

  renew(_key: string, token: ClaimToken, leaseMs: number): boolean {
    const claim = token as SqliteClaim;
    const now = this.opts.clock.now();
    return this.guard(() => this.q.renew.run(now + leaseMs, claim.kd, claim.token, now).changes === 1, true);
  }

  close(): void {
    this.db.close();
  }

  /** Rows as the database holds them now (tests and diagnostics). */
  rows(): (RecordRow & { kd: string })[] {
    return this.db
      .query<SqlRow & { kd: string }, []>("SELECT kd, fp, done, token, live_until, value FROM luma_idempotency_records ORDER BY kd")
      .all()
      .map((r) => ({ kd: r.kd, fp: r.fp, done: r.done === 1, token: r.token, until: r.live_until, value: r.value }));
  }

  // ——— inside the IMMEDIATE transaction ———

  private claimLocked(req: ClaimRequest, kd: string, fp: string): ClaimResult {
    const now = this.opts.clock.now();
    const found = findLive(toRow(this.q.row.get(kd)), fp, now, this.holderAlive);
    if (found !== undefined) {
      if (found.kind === "done") return { kind: "done", value: this.codec.decodeValue(kd, found.value) };
      if (found.kind === "conflict") return found.running ? RUNNING_CONFLICT : DONE_CONFLICT;
      return { kind: "running", settled: this.waiters.whenSettled(found.token, () => this.isHeld(kd, found.token)) };
    }
    const token = newClaimToken();
    this.q.write.run(kd, fp, 0, token, now + req.leaseMs, null);
    this.waiters.own(token);
    return { kind: "claimed", token: new SqliteClaim(kd, fp, token) };
  }

  private openLocked(): void {
    const stored = this.db.query<{ value: string }, []>("SELECT value FROM luma_idempotency_meta WHERE name = 'header'").get();
    // Records without a header: the header was deleted (or the rows copied in). A fresh
    // header would not read them (sealed ids differ per salt): refused, not started over.
    if (stored === null && this.db.query("SELECT 1 FROM luma_idempotency_records WHERE live_until > ? LIMIT 1").get(this.opts.clock.now()) !== null) {
      throw startupError(storeRefusal.untrusted(this.shown, "holds records but no header"), { catalogCode: "E0609" });
    }
    const decision = decideHeader(stored?.value, { ...this.opts, shown: this.shown });
    this.codec = new RecordCodec(decision.keys, this.shown);
    if (decision.kind === "seal") this.sealRows();
    if (decision.write !== undefined) {
      this.db.query("INSERT OR REPLACE INTO luma_idempotency_meta (name, value) VALUES ('header', ?)").run(decision.write);
    }
    this.sweepRows();
  }

  /** A plain store opened with encryption: every row is renamed and sealed in place. */
  private sealRows(): void {
    const rows = this.rows();
    this.db.exec("DELETE FROM luma_idempotency_records");
    for (const r of rows) {
      const kd = this.codec.sealedId(r.kd);
      const value = r.value === null ? null : this.codec.sealPlainValue(r.kd, r.value);
      this.q.write.run(kd, this.codec.sealedId(r.fp), r.done ? 1 : 0, r.token, r.until, value);
    }
  }

  private isHeld(kd: string, token: string): boolean {
    const row = this.q.held.get(kd, token);
    return row !== null && (row.live_until > this.opts.clock.now() || this.holderAlive(token));
  }

  /** A running claim past its lease still holds its key while its owner runs (claim-owner.ts). */
  private readonly holderAlive = (token: string): boolean => this.waiters.holds(token) || holderRunsHere(token);

  private sweepRows(): void {
    const now = this.opts.clock.now();
    this.q.sweep.run(now, now - RUNNING_RECORD_GRACE_MS);
  }

  private sweep(): void {
    this.claimsUntilSweep = SWEEP_EVERY;
    try {
      this.sweepRows();
    } catch {
      // busy: the next sweep will do
    }
  }

  private guard<T>(op: () => T, retryable: boolean): T {
    try {
      return op();
    } catch (e) {
      if ((e as LumaError).name === "LumaError") throw e;
      throw runtimeError("RUNTIME_ERROR", `Idempotency store ${this.shown} failed: ${(e as Error).message}`, { retryable });
    }
  }
}

const toRow = (r: SqlRow | null): RecordRow | undefined =>
  r === null ? undefined : { fp: r.fp, done: r.done === 1, token: r.token, until: r.live_until, value: r.value };
