/**
 * The PostgreSQL idempotency store (spec §11 extension, `backend: "postgres"`): records
 * shared by workers on many machines, through Bun's built-in client (`Bun.sql`).
 *
 *   <table>       one row per key (record-row.ts; ids and values by record-codec.ts)
 *   <table>_meta  the header (store-header.ts: format, version, encryption)
 *
 * Both are created when missing, under an advisory lock so that workers starting together
 * do not race on CREATE. A claim is one statement: an INSERT … ON CONFLICT DO UPDATE that
 * takes the key when it is free or its done record expired, returning the row; when it does
 * not take the key, the same statement returns the row instead. A running claim past its
 * lease is taken over only by a second statement naming its token, once this worker found
 * that its owner does not run on this machine (claim-owner.ts): an owner whose handler
 * blocks its thread stops its heartbeat, not its work (and its leases are also renewed off
 * the main thread: off-thread-renewal.ts). `complete` is an upsert fenced by the claim's
 * token, so an owner whose claim was taken over changes nothing. A waiter on another
 * worker's claim polls the row with backoff.
 *
 * Times are the workers' clocks (epoch ms): machines in a pool need synchronised clocks
 * (NTP); the lease margin (10 s) is far above ordinary skew.
 */
import type { SQL } from "bun";
import { startupError } from "../../../diagnostics/luma-error";
import { systemClock, type Clock } from "../../base/clock";
import { ClaimWaiters } from "../claim-waiters";
import type { ClaimRequest, ClaimResult, ClaimToken, IdempotencyStore } from "../idempotency-store";
import { holderRunsHere } from "../claim-owner";
import { OffThreadRenewer } from "../off-thread-renewal";
import { RecordCodec } from "../record-codec";
import { DONE_CONFLICT, findLive, newClaimToken, RUNNING_CONFLICT, RUNNING_RECORD_GRACE_MS } from "../record-row";
import { callFailure, openFailure, type StoreConnection } from "../store-connection";
import { decideHeader, requirePassphrase, storeRefusal } from "../store-header";
import { postgresStatements, type PgStatements } from "./postgres-statements";

export interface PostgresStoreOptions {
  connection: StoreConnection;
  /** Table name (default luma_idempotency); the header lives in `<table>_meta`. */
  table?: string;
  encryption?: "aes-256-gcm";
  /** The value of LUMA_IDEMPOTENCY_KEY. Never stored, never printed. */
  passphrase?: string;
  clock: Clock;
  /** Connections in the pool (default 4). */
  maxConnections?: number;
}

interface PgRow {
  claimed: boolean;
  fp: string;
  done: boolean;
  token: string;
  live_until: string | number;
  value: string | null;
}

class PgClaim {
  constructor(
    readonly kd: string,
    readonly fp: string,
    readonly token: string,
  ) {}
}

export const DEFAULT_PG_TABLE = "luma_idempotency";
const TABLE_NAME = /^[a-z_][a-z0-9_]{0,50}$/;
const SWEEP_EVERY = 1024;
const POLL = { firstMs: 5, maxMs: 100 };
/** A claim that meets a row changing under it (deleted between its two halves) tries again. */
const CLAIM_TRIES = 5;

export class PostgresIdempotencyStore implements IdempotencyStore {
  private codec!: RecordCodec;
  private readonly waiters = new ClaimWaiters(POLL);
  private claimsUntilSweep = SWEEP_EVERY;
  private offThread: OffThreadRenewer | undefined;

  private constructor(
    private readonly sql: SQL,
    private readonly q: PgStatements,
    private readonly opts: PostgresStoreOptions,
  ) {}

  /** Connects, creates the tables if missing and checks the header; errors are startup errors. */
  static async open(opts: PostgresStoreOptions): Promise<PostgresIdempotencyStore> {
    const c = opts.connection;
    requirePassphrase(opts);
    const table = opts.table ?? DEFAULT_PG_TABLE;
    if (!TABLE_NAME.test(table)) throw openFailure(c, new Error(`invalid table name ${JSON.stringify(table)}`));
    let sql: SQL | undefined;
    try {
      sql = new Bun.SQL({ url: c.url, max: opts.maxConnections ?? 4, connectionTimeout: 10 });
      const store = new PostgresIdempotencyStore(sql, postgresStatements(table), opts);
      await store.openInTransaction();
      return store;
    } catch (e) {
      await sql?.close().catch(() => {});
      throw openFailure(c, e);
    }
  }

  async claim(req: ClaimRequest): Promise<ClaimResult> {
    if (--this.claimsUntilSweep === 0) this.sweep();
    const kd = this.codec.idOf(req.key);
    const fp = this.codec.idOf(req.fingerprint);
    try {
      // A running claim past its lease whose owner does not run here: taken over next try, if still that one.
      let lapsed: string | null = null;
      for (let i = 0; i < CLAIM_TRIES; i++) {
        const now = this.opts.clock.now();
        const token = newClaimToken();
        const rows = (await this.sql.unsafe(this.q.claim, [kd, fp, token, now + req.leaseMs, now, lapsed])) as PgRow[];
        const row = rows[0];
        if (row === undefined) continue; // the live row went away between the statement's halves
        if (row.claimed) {
          this.waiters.own(token);
          return { kind: "claimed", token: new PgClaim(kd, fp, token) };
        }
        const found = findLive({ ...row, until: Number(row.live_until) }, fp, now, this.holderAlive);
        if (found === undefined) {
          if (!row.done) lapsed = row.token;
          continue;
        }
        if (found.kind === "done") return { kind: "done", value: this.codec.decodeValue(kd, found.value) };
        if (found.kind === "conflict") return found.running ? RUNNING_CONFLICT : DONE_CONFLICT;
        return { kind: "running", settled: this.waiters.whenSettled(found.token, () => this.isHeld(kd, found.token)) };
      }
      throw new Error(`the record for a key kept changing during ${CLAIM_TRIES} claim attempts`);
    } catch (e) {
      throw callFailure(this.opts.connection, e, true);
    }
  }

  async complete(_key: string, token: ClaimToken, value: unknown, ttlMs: number): Promise<void> {
    const claim = token as PgClaim;
    try {
      const encoded = this.codec.encodeValue(claim.kd, value);
      await this.sql.unsafe(this.q.complete, [claim.kd, claim.fp, claim.token, this.opts.clock.now() + ttlMs, encoded]);
    } catch (e) {
      throw callFailure(this.opts.connection, e, false);
    } finally {
      this.waiters.settle(claim.token);
    }
  }

  async release(_key: string, token: ClaimToken): Promise<void> {
    const claim = token as PgClaim;
    try {
      await this.sql.unsafe(this.q.release, [claim.kd, claim.token]);
    } catch (e) {
      throw callFailure(this.opts.connection, e, false);
    } finally {
      this.waiters.settle(claim.token);
    }
  }

  async renew(_key: string, token: ClaimToken, leaseMs: number): Promise<boolean> {
    const claim = token as PgClaim;
    const now = this.opts.clock.now();
    try {
      const rows = (await this.sql.unsafe(this.q.renew, [claim.kd, claim.token, now + leaseMs, now])) as unknown[];
      return rows.length > 0;
    } catch (e) {
      throw callFailure(this.opts.connection, e, true);
    }
  }

  /** The worker's beats use the wall clock: not under a test's injected clock. */
  renewOffThread(_key: string, token: ClaimToken, leaseMs: number): (() => void) | undefined {
    if (this.opts.clock !== systemClock) return undefined;
    const claim = token as PgClaim;
    // q.renew's $1 kd, $2 token, $3 new lease end, $4 now.
    this.offThread ??= new OffThreadRenewer({ kind: "postgres", url: this.opts.connection.url, text: this.q.renew, args: [{ arg: 0 }, { arg: 1 }, { nowPlusArg: 2 }, { now: true }] });
    return this.offThread.keep([claim.kd, claim.token, leaseMs], Math.max(1, leaseMs / 3));
  }

  async close(): Promise<void> {
    await this.sql.close();
  }

  private async isHeld(kd: string, token: string): Promise<boolean> {
    const rows = (await this.sql.unsafe(this.q.held, [kd, token])) as { live_until: string }[];
    return rows.length > 0 && (Number(rows[0].live_until) > this.opts.clock.now() || this.holderAlive(token));
  }

  /** A running claim past its lease still holds its key while its owner runs (claim-owner.ts). */
  private readonly holderAlive = (token: string): boolean => this.waiters.holds(token) || holderRunsHere(token);

  private sweepArgs(): [number, number] {
    const now = this.opts.clock.now();
    return [now, now - RUNNING_RECORD_GRACE_MS];
  }

  /** Drops expired rows in the background; a failure only delays it to the next sweep. */
  private sweep(): void {
    this.claimsUntilSweep = SWEEP_EVERY;
    this.sql.unsafe(this.q.sweep, this.sweepArgs()).then(
      () => {},
      () => {},
    );
  }

  private async openInTransaction(): Promise<void> {
    const shown = this.opts.connection.shown;
    await this.sql.begin(async (tx) => {
      // One opener at a time per table: CREATE … IF NOT EXISTS is not safe against itself.
      await tx.unsafe(this.q.lock);
      for (const ddl of this.q.create) await tx.unsafe(ddl);
      const stored = (await tx.unsafe(this.q.readHeader)) as { value: string }[];
      if (stored.length === 0 && ((await tx.unsafe(this.q.anyLive, [this.opts.clock.now()])) as unknown[]).length > 0) {
        throw startupError(storeRefusal.headerless(shown), { catalogCode: "E0609" });
      }
      const decision = decideHeader(stored[0]?.value, { ...this.opts, shown });
      this.codec = new RecordCodec(decision.keys, shown);
      if (decision.kind === "seal") {
        const rows = (await tx.unsafe(this.q.allRows)) as (PgRow & { kd: string })[];
        await tx.unsafe(this.q.deleteAll);
        for (const r of rows) {
          const value = r.value === null ? null : this.codec.sealPlainValue(r.kd, r.value);
          await tx.unsafe(this.q.insert, [this.codec.sealedId(r.kd), this.codec.sealedId(r.fp), r.done, r.token, Number(r.live_until), value]);
        }
      }
      if (decision.write !== undefined) await tx.unsafe(this.q.writeHeader, [decision.write]);
      await tx.unsafe(this.q.sweep, this.sweepArgs());
    });
  }
}
