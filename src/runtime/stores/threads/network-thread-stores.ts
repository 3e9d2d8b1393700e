/**
 * Stored threads on a server (issue #26 §1), shared by processes on many machines — the
 * same rows as the SQLite store (thread-keys.ts seals them), through Bun's built-in clients:
 *
 * - `postgres` (Bun.SQL): tables `luma_threads_meta` and `luma_threads` (with each thread's
 *   id, sealed when encrypted, for listing: thread-message.ts `idBinding`); an append is one
 *   transaction that locks the thread's row (`SELECT … FOR UPDATE`), checks its version and
 *   writes the messages with the version moved on; a first append inserts, and loses to
 *   another process's first append (`ON CONFLICT DO NOTHING`).
 * - `redis` (Bun.RedisClient): one hash per thread (`luma:threads:<id digest>`: version,
 *   messages, id), written by a script that checks the version first and adds the digest to
 *   the set `luma:threads:index` (what `list` reads); the header at `luma:threads:header`
 *   (SET NX).
 *
 * A version that moved since the ask read the thread refuses the append (THREAD_CONFLICT).
 */
import type { RedisClient, SQL } from "bun";
import { callFailure, openFailure, type StoreConnection } from "../store-connection";
import type { RecordCodec } from "../record-codec";
import { decideThreadKeys } from "./thread-keys";
import { idBinding, listed, type ListedThread, type StoredThread, type ThreadMessage, type ThreadStore } from "./thread-message";

interface Sealing {
  encryption?: "aes-256-gcm";
  passphrase?: string;
}

const PG_SCHEMA = [
  "CREATE TABLE IF NOT EXISTS luma_threads_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS luma_threads (kd TEXT PRIMARY KEY, version BIGINT NOT NULL, messages TEXT NOT NULL)",
];

export class PostgresThreadStore implements ThreadStore {
  readonly shown: string;
  private constructor(
    private readonly sql: SQL,
    private readonly codec: RecordCodec,
    private readonly c: StoreConnection,
  ) {
    this.shown = `postgres ${c.shown}`;
  }

  static async open(c: StoreConnection, sealing: Sealing): Promise<PostgresThreadStore> {
    let sql: SQL | undefined;
    try {
      sql = new Bun.SQL({ url: c.url, max: 4, connectionTimeout: 10 });
      // Under an advisory lock: CREATE TABLE IF NOT EXISTS is not safe against itself, and two
      // servers started together on a new database would make the same table at once.
      await sql.begin(async (tx) => {
        await tx.unsafe("SELECT pg_advisory_xact_lock(hashtext('luma threads store'))");
        for (const statement of PG_SCHEMA) await tx.unsafe(statement);
        // Stores made before threads could be listed; checked first, as ALTER TABLE locks the table even when there is nothing to add.
        const hasId = await tx.unsafe("SELECT 1 FROM pg_attribute WHERE attrelid = 'luma_threads'::regclass AND attname = 'id' AND NOT attisdropped");
        if ((hasId as unknown[]).length === 0) await tx.unsafe("ALTER TABLE luma_threads ADD COLUMN IF NOT EXISTS id TEXT");
      });
      await sql.unsafe("INSERT INTO luma_threads_meta (name, value) VALUES ('lock', '') ON CONFLICT DO NOTHING");
      const codec = await sql.begin(async (tx) => {
        const rows = (await tx.unsafe("SELECT value FROM luma_threads_meta WHERE name = 'header'")) as { value: string }[];
        const decided = decideThreadKeys(rows[0]?.value, { ...sealing, shown: `postgres ${c.shown}` });
        if (decided.write) await tx.unsafe("INSERT INTO luma_threads_meta (name, value) VALUES ('header', $1) ON CONFLICT DO NOTHING", [decided.write]);
        return decided.codec;
      });
      return new PostgresThreadStore(sql, codec, c);
    } catch (e) {
      await sql?.close().catch(() => {});
      throw openFailure(c, e);
    }
  }

  async load(id: string): Promise<StoredThread> {
    const kd = this.codec.idOf(id);
    try {
      const rows = (await this.sql.unsafe("SELECT version, messages FROM luma_threads WHERE kd = $1", [kd])) as { version: string | number; messages: string }[];
      return rows[0] ? { version: Number(rows[0].version), messages: this.codec.decodeValue(kd, rows[0].messages) as ThreadMessage[] } : { version: 0, messages: [] };
    } catch (e) {
      throw callFailure(this.c, e, true);
    }
  }

  async append(id: string, version: number, messages: readonly ThreadMessage[]): Promise<boolean> {
    const kd = this.codec.idOf(id);
    try {
      return await this.sql.begin(async (tx) => {
        const rows = (await tx.unsafe("SELECT version, messages FROM luma_threads WHERE kd = $1 FOR UPDATE", [kd])) as { version: string | number; messages: string }[];
        const row = rows[0];
        if ((row ? Number(row.version) : 0) !== version) return false;
        const all = [...(row ? (this.codec.decodeValue(kd, row.messages) as ThreadMessage[]) : []), ...messages];
        const encoded = this.codec.encodeValue(kd, all);
        const sealedId = this.codec.encodeValue(idBinding(kd), id);
        if (!row) {
          const inserted = await tx.unsafe("INSERT INTO luma_threads (kd, version, messages, id) VALUES ($1, 1, $2, $3) ON CONFLICT DO NOTHING RETURNING kd", [kd, encoded, sealedId]);
          return (inserted as unknown[]).length === 1;
        }
        await tx.unsafe("UPDATE luma_threads SET version = $2, messages = $3, id = $4 WHERE kd = $1", [kd, version + 1, encoded, sealedId]);
        return true;
      });
    } catch (e) {
      throw callFailure(this.c, e, false);
    }
  }

  async list(): Promise<ListedThread[]> {
    try {
      const rows = (await this.sql.unsafe("SELECT kd, version, id FROM luma_threads WHERE id IS NOT NULL")) as { kd: string; version: string | number; id: string }[];
      return listed(this.codec, rows);
    } catch (e) {
      throw callFailure(this.c, e, true);
    }
  }

  async close(): Promise<void> {
    await this.sql.close();
  }
}

const HEADER_KEY = "luma:threads:header";
const INDEX_KEY = "luma:threads:index";
/**
 * KEYS[1] the thread's hash, KEYS[2] the index of digests; ARGV: the version read, the
 * messages, the (sealed) id, the digest. 1 written, 0 another append came first.
 */
const APPEND = `local v = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', v + 1, 'messages', ARGV[2], 'id', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
return 1`;

export class RedisThreadStore implements ThreadStore {
  readonly shown: string;
  private constructor(
    private readonly client: RedisClient,
    private readonly codec: RecordCodec,
    private readonly c: StoreConnection,
  ) {
    this.shown = `redis ${c.shown}`;
  }

  static async open(c: StoreConnection, sealing: Sealing): Promise<RedisThreadStore> {
    let client: RedisClient | undefined;
    try {
      client = new Bun.RedisClient(c.url, { connectionTimeout: 10_000, maxRetries: 3, autoReconnect: true });
      await client.connect();
      const shown = `redis ${c.shown}`;
      let stored = ((await client.send("GET", [HEADER_KEY])) as string | null) ?? undefined;
      let decided = decideThreadKeys(stored, { ...sealing, shown });
      if (decided.write && (await client.send("SET", [HEADER_KEY, decided.write, "NX"])) === null) {
        // Another process wrote the header first: use its.
        stored = ((await client.send("GET", [HEADER_KEY])) as string | null) ?? undefined;
        decided = decideThreadKeys(stored, { ...sealing, shown });
      }
      return new RedisThreadStore(client, decided.codec, c);
    } catch (e) {
      client?.close();
      throw openFailure(c, e);
    }
  }

  async load(id: string): Promise<StoredThread> {
    const kd = this.codec.idOf(id);
    try {
      const [version, messages] = (await this.client.send("HMGET", [`luma:threads:${kd}`, "version", "messages"])) as (string | null)[];
      return messages ? { version: Number(version), messages: this.codec.decodeValue(kd, messages) as ThreadMessage[] } : { version: 0, messages: [] };
    } catch (e) {
      throw callFailure(this.c, e, true);
    }
  }

  async append(id: string, version: number, messages: readonly ThreadMessage[]): Promise<boolean> {
    const kd = this.codec.idOf(id);
    try {
      const current = await this.load(id);
      if (current.version !== version) return false;
      const encoded = this.codec.encodeValue(kd, [...current.messages, ...messages]);
      const sealedId = this.codec.encodeValue(idBinding(kd), id);
      return (await this.client.send("EVAL", [APPEND, "2", `luma:threads:${kd}`, INDEX_KEY, String(version), encoded, sealedId, kd])) === 1;
    } catch (e) {
      throw callFailure(this.c, e, false);
    }
  }

  async list(): Promise<ListedThread[]> {
    try {
      const digests = (await this.client.send("SMEMBERS", [INDEX_KEY])) as string[];
      const rows = await Promise.all(
        digests.map(async (kd) => {
          const [version, id] = (await this.client.send("HMGET", [`luma:threads:${kd}`, "version", "id"])) as (string | null)[];
          return { kd, version: version ?? 0, id };
        }),
      );
      return listed(this.codec, rows);
    } catch (e) {
      throw callFailure(this.c, e, true);
    }
  }

  async close(): Promise<void> {
    this.client.close();
  }
}
