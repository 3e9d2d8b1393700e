/**
 * The Redis idempotency store (spec §11 extension, `backend: "redis"`): records shared by
 * workers on many machines, through Bun's built-in client (`Bun.redis`' RedisClient).
 *
 *   <prefix>header      the header (store-header.ts: format, version, encryption)
 *   <prefix>r:<key id>  one hash per key (redis-scripts.ts), with a Redis expiry
 *
 * A claim is one Lua script (the `SET NX PX` of a record, extended to read the record it
 * meets): it takes the key when there is no live record and writes an in-flight record
 * with a fresh token and the lease as its expiry, so a dead worker's claim vanishes from
 * the server when its lease ends. `complete` and `release` are scripts fenced by the token.
 * A waiter on another worker's claim polls with backoff. Scripts go by EVALSHA, falling
 * back to EVAL when the server does not have them cached yet.
 *
 * Persistence is the server's: with neither RDB nor AOF a Redis restart forgets every
 * record (see docs/stores.md on choosing `appendonly yes` for exactly-once across restarts).
 */
import type { RedisClient } from "bun";
import { startupError } from "../../../diagnostics/luma-error";
import { systemClock, type Clock } from "../../base/clock";
import { holderRunsHere } from "../claim-owner";
import { ClaimWaiters } from "../claim-waiters";
import type { ClaimRequest, ClaimResult, ClaimToken, IdempotencyStore } from "../idempotency-store";
import { OffThreadRenewer } from "../off-thread-renewal";
import { RecordCodec } from "../record-codec";
import { DONE_CONFLICT, newClaimToken, RUNNING_CONFLICT, RUNNING_RECORD_GRACE_MS } from "../record-row";
import { callFailure, openFailure, type StoreConnection } from "../store-connection";
import { decideHeader, requirePassphrase, storeRefusal } from "../store-header";
import { CLAIM, COMPLETE, HELD, RELEASE, RENEW } from "./redis-scripts";

export interface RedisStoreOptions {
  connection: StoreConnection;
  /** Key prefix (default `luma:idempotency:`). */
  prefix?: string;
  encryption?: "aes-256-gcm";
  /** The value of LUMA_IDEMPOTENCY_KEY. Never stored, never printed. */
  passphrase?: string;
  clock: Clock;
}

class RedisClaim {
  constructor(
    readonly kd: string,
    readonly fp: string,
    readonly token: string,
  ) {}
}

export const DEFAULT_REDIS_PREFIX = "luma:idempotency:";
const POLL = { firstMs: 5, maxMs: 100 };
const RELEASE_LOCK = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end return 0";

interface Script {
  text: string;
  sha: string;
}

const script = (text: string): Script => ({ text, sha: new Bun.CryptoHasher("sha1").update(text).digest("hex") });
const SCRIPTS = { claim: script(CLAIM), complete: script(COMPLETE), release: script(RELEASE), renew: script(RENEW), held: script(HELD) };

/** Redis wants integral milliseconds; a lease or TTL of 0 would be an error, so at least 1. */
/** A claim that meets a lapsed record changing under it tries again, this many times. */
const CLAIM_TRIES = 5;
const ms = (n: number): string => String(Math.max(1, Math.ceil(n)));

export class RedisIdempotencyStore implements IdempotencyStore {
  private codec!: RecordCodec;
  private readonly waiters = new ClaimWaiters(POLL);
  private readonly prefix: string;
  private offThread: OffThreadRenewer | undefined;

  private constructor(
    private readonly client: RedisClient,
    private readonly opts: RedisStoreOptions,
  ) {
    this.prefix = opts.prefix ?? DEFAULT_REDIS_PREFIX;
  }

  /** Connects and checks the header; errors are startup errors (the program does not run). */
  static async open(opts: RedisStoreOptions): Promise<RedisIdempotencyStore> {
    const c = opts.connection;
    requirePassphrase(opts);
    let client: RedisClient | undefined;
    try {
      client = new Bun.RedisClient(c.url, { connectionTimeout: 10_000, maxRetries: 3, autoReconnect: true });
      const store = new RedisIdempotencyStore(client, opts);
      await store.openHeader();
      return store;
    } catch (e) {
      client?.close();
      throw openFailure(c, e);
    }
  }

  async claim(req: ClaimRequest): Promise<ClaimResult> {
    const kd = this.codec.idOf(req.key);
    const fp = this.codec.idOf(req.fingerprint);
    const token = newClaimToken();
    let reply: string[];
    // A running claim past its lease whose owner does not run here is taken over by a second
    // call naming its token (redis-scripts.ts); one that runs here still holds its key.
    let lapsed = "";
    for (let tries = 0; ; tries++) {
      const now = this.opts.clock.now();
      try {
        reply = (await this.run(SCRIPTS.claim, this.recordKey(kd), [String(now), fp, token, ms(now + req.leaseMs), ms(req.leaseMs + RUNNING_RECORD_GRACE_MS), lapsed])) as string[];
      } catch (e) {
        throw callFailure(this.opts.connection, e, true);
      }
      if (reply[0] !== "lapsed") break;
      if (this.holderAlive(reply[1])) {
        reply = reply[2] === fp ? ["running", reply[1]] : ["conflict", "0"];
        break;
      }
      if (tries === CLAIM_TRIES) throw callFailure(this.opts.connection, new Error(`the record for a key kept changing during ${CLAIM_TRIES} claim attempts`), true);
      lapsed = reply[1];
    }
    switch (reply[0]) {
      case "claimed":
        this.waiters.own(token);
        return { kind: "claimed", token: new RedisClaim(kd, fp, token) };
      case "done":
        return { kind: "done", value: this.codec.decodeValue(kd, reply[1]) };
      case "running": {
        const holder = reply[1];
        return { kind: "running", settled: this.waiters.whenSettled(holder, () => this.isHeld(kd, holder)) };
      }
      default:
        return reply[1] === "0" ? RUNNING_CONFLICT : DONE_CONFLICT;
    }
  }

  async complete(_key: string, token: ClaimToken, value: unknown, ttlMs: number): Promise<void> {
    const claim = token as RedisClaim;
    try {
      const encoded = this.codec.encodeValue(claim.kd, value);
      const now = this.opts.clock.now();
      await this.run(SCRIPTS.complete, this.recordKey(claim.kd), [claim.token, claim.fp, ms(now + ttlMs), encoded, ms(ttlMs)]);
    } catch (e) {
      throw callFailure(this.opts.connection, e, false);
    } finally {
      this.waiters.settle(claim.token);
    }
  }

  async release(_key: string, token: ClaimToken): Promise<void> {
    const claim = token as RedisClaim;
    try {
      await this.run(SCRIPTS.release, this.recordKey(claim.kd), [claim.token]);
    } catch (e) {
      throw callFailure(this.opts.connection, e, false);
    } finally {
      this.waiters.settle(claim.token);
    }
  }

  async renew(_key: string, token: ClaimToken, leaseMs: number): Promise<boolean> {
    const claim = token as RedisClaim;
    const now = this.opts.clock.now();
    try {
      return (await this.run(SCRIPTS.renew, this.recordKey(claim.kd), [claim.token, String(now), ms(now + leaseMs), ms(leaseMs + RUNNING_RECORD_GRACE_MS)])) === 1;
    } catch (e) {
      throw callFailure(this.opts.connection, e, true);
    }
  }

  /** The worker's beats use the wall clock: not under a test's injected clock. */
  renewOffThread(_key: string, token: ClaimToken, leaseMs: number): (() => void) | undefined {
    if (this.opts.clock !== systemClock) return undefined;
    const claim = token as RedisClaim;
    // RENEW's key; ARGV token, now, until, keepMs.
    this.offThread ??= new OffThreadRenewer({ kind: "redis", url: this.opts.connection.url, text: RENEW, key: { arg: 0 }, args: [{ arg: 1 }, { now: true }, { nowPlusArg: 2 }, { arg: 3 }] });
    return this.offThread.keep([this.recordKey(claim.kd), claim.token, leaseMs, leaseMs + RUNNING_RECORD_GRACE_MS], Math.max(1, leaseMs / 3));
  }

  close(): void {
    this.client.close();
  }

  private recordKey(kd: string): string {
    return `${this.prefix}r:${kd}`;
  }

  private async isHeld(kd: string, token: string): Promise<boolean> {
    const held = await this.run(SCRIPTS.held, this.recordKey(kd), [token, String(this.opts.clock.now())]);
    return held === 1 || (held === 2 && this.holderAlive(token));
  }

  /** A running claim past its lease still holds its key while its owner runs (claim-owner.ts). */
  private readonly holderAlive = (token: string): boolean => this.waiters.holds(token) || holderRunsHere(token);

  private async run(s: Script, key: string, args: string[]): Promise<unknown> {
    try {
      return await this.client.send("EVALSHA", [s.sha, "1", key, ...args]);
    } catch (e) {
      if (!String((e as Error).message).startsWith("NOSCRIPT")) throw e;
      return this.client.send("EVAL", [s.text, "1", key, ...args]);
    }
  }

  private async openHeader(): Promise<void> {
    const shown = this.opts.connection.shown;
    const headerKey = `${this.prefix}header`;
    const stored = ((await this.client.send("GET", [headerKey])) as string | null) ?? undefined;
    if (stored === undefined && (await this.anyRecord())) {
      // A worker that created the store meanwhile wrote its header before any record.
      if ((await this.client.send("EXISTS", [headerKey])) === 1) return this.openHeader();
      throw startupError(storeRefusal.headerless(shown), { catalogCode: "E0609" });
    }
    const decision = decideHeader(stored, { ...this.opts, shown });
    this.codec = new RecordCodec(decision.keys, shown);
    if (decision.kind === "use" && decision.write !== undefined) {
      // Two workers creating the store at once: the first header wins, and both use it.
      const set = await this.client.send("SET", [headerKey, decision.write, "NX"]);
      if (set === null) return this.openHeader();
      return;
    }
    if (decision.kind === "seal") await this.sealUnderLock(headerKey, stored!, decision.write);
  }

  /**
   * Whether any record key exists (records expire on the server, so any is live). Asked
   * only when there is no header — a store's first start, or a deleted header — and a SCAN
   * walks the whole keyspace, so on a Redis shared with millions of other keys that first
   * start takes a few round trips per 10,000 keys.
   */
  private async anyRecord(): Promise<boolean> {
    let cursor = "0";
    do {
      const [next, keys] = (await this.client.send("SCAN", [cursor, "MATCH", `${this.prefix}r:*`, "COUNT", "10000"])) as [string, string[]];
      if (keys.length > 0) return true;
      cursor = next;
    } while (cursor !== "0");
    return false;
  }

  /**
   * Sealing rewrites every record, which is not one atomic step in Redis: workers starting
   * together take turns through a lock key, and whoever comes second finds the store sealed.
   */
  private async sealUnderLock(headerKey: string, plainHeader: string, sealedHeader: string): Promise<void> {
    const lockKey = `${this.prefix}sealing`;
    const token = newClaimToken();
    if ((await this.client.send("SET", [lockKey, token, "NX", "PX", "60000"])) === null) {
      while ((await this.client.send("EXISTS", [lockKey])) === 1) await Bun.sleep(20);
      return this.openHeader();
    }
    let changed = false;
    try {
      changed = (await this.client.send("GET", [headerKey])) !== plainHeader;
      if (!changed) {
        await this.sealRecords();
        await this.client.send("SET", [headerKey, sealedHeader]);
      }
    } finally {
      await this.client.send("EVAL", [RELEASE_LOCK, "1", lockKey, token]);
    }
    if (changed) return this.openHeader(); // sealed by another worker meanwhile
  }

  /** A plain store opened with encryption: every record is renamed and sealed in place. */
  private async sealRecords(): Promise<void> {
    const prefix = `${this.prefix}r:`;
    // All names first: the sealed records share the prefix, and SCAN would meet them too.
    const plainKeys = new Set<string>();
    let cursor = "0";
    do {
      const [next, keys] = (await this.client.send("SCAN", [cursor, "MATCH", `${prefix}*`, "COUNT", "500"])) as [string, string[]];
      cursor = next;
      for (const key of keys) plainKeys.add(key);
    } while (cursor !== "0");
    for (const key of plainKeys) {
      const kd = key.slice(prefix.length);
      const [f, d, t, u, v] = (await this.client.send("HMGET", [key, "f", "d", "t", "u", "v"])) as (string | null)[];
      const pttl = (await this.client.send("PTTL", [key])) as number;
      if (f === null || d === null || t === null || u === null || pttl <= 0) continue;
      const sealedKey = this.recordKey(this.codec.sealedId(kd));
      const fields = ["f", this.codec.sealedId(f), "d", d, "t", t, "u", u];
      if (v !== null) fields.push("v", this.codec.sealPlainValue(kd, v));
      await this.client.send("HSET", [sealedKey, ...fields]);
      await this.client.send("PEXPIRE", [sealedKey, String(pttl)]);
      await this.client.send("DEL", [key]);
    }
  }
}
