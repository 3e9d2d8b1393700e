/**
 * Stored threads in a SQLite file (`"threads": { "backend": "sqlite" }`, issue #26 §1), shared
 * by the processes of one machine through Bun's built-in SQLite:
 *
 *   luma_threads_meta  the header (thread-keys.ts)
 *   luma_threads       one row per thread: its id's digest, a version, its messages (one value),
 *                      and the id itself (sealed when encrypted) for listing
 *
 * An append is one IMMEDIATE transaction — read the version, write the messages with the
 * version moved on only if it is still the one the ask read — so two processes' exchanges
 * never interleave: the later one is refused (THREAD_CONFLICT, thread-values.ts).
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { startupError, type LumaError } from "../../../diagnostics/luma-error";
import type { RecordCodec } from "../record-codec";
import { createStoreFile, existingStoreFile, OPEN_EXISTING } from "../sqlite/sqlite-store-file";
import { decideThreadKeys } from "./thread-keys";
import { idBinding, listed, type ListedThread, type StoredThread, type ThreadMessage, type ThreadStore } from "./thread-message";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS luma_threads_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS luma_threads (kd TEXT PRIMARY KEY, version INTEGER NOT NULL, messages TEXT NOT NULL, id TEXT) WITHOUT ROWID;
`;

export class SqliteThreadStore implements ThreadStore {
  private constructor(
    private readonly db: Database,
    private readonly codec: RecordCodec,
    readonly shown: string,
  ) {}

  static open(opts: { path: string; displayPath: string; encryption?: "aes-256-gcm"; passphrase?: string }): SqliteThreadStore {
    const shown = `sqlite ${opts.displayPath}`;
    let db: Database;
    try {
      mkdirSync(dirname(opts.path), { recursive: true });
      if (!existingStoreFile(opts.path, opts.displayPath)) createStoreFile(opts.path, (fresh) => (fresh.exec("PRAGMA journal_mode = WAL"), fresh.exec(SCHEMA)));
      db = new Database(opts.path, OPEN_EXISTING);
      db.exec("PRAGMA busy_timeout = 10000");
      db.exec("PRAGMA journal_mode = WAL");
      db.exec(SCHEMA);
      // Stores written before threads could be listed: their rows get the id on their next append.
      if (!db.query<{ name: string }, []>("PRAGMA table_info(luma_threads)").all().some((c) => c.name === "id")) db.exec("ALTER TABLE luma_threads ADD COLUMN id TEXT");
    } catch (e) {
      if ((e as LumaError).name === "LumaError") throw e;
      throw startupError(`threads store ${shown}: cannot open it as a SQLite database: ${(e as Error).message}`, { catalogCode: "E0661" });
    }
    try {
      const codec = db.transaction(() => {
        const stored = db.query<{ value: string }, []>("SELECT value FROM luma_threads_meta WHERE name = 'header'").get()?.value;
        const decided = decideThreadKeys(stored, { ...opts, shown });
        if (decided.write) db.query("INSERT INTO luma_threads_meta (name, value) VALUES ('header', ?)").run(decided.write);
        return decided.codec;
      }).immediate();
      return new SqliteThreadStore(db, codec, shown);
    } catch (e) {
      db.close();
      throw e;
    }
  }

  async load(id: string): Promise<StoredThread> {
    const kd = this.codec.idOf(id);
    const row = this.db.query<{ version: number; messages: string }, [string]>("SELECT version, messages FROM luma_threads WHERE kd = ?").get(kd);
    return row ? { version: row.version, messages: this.codec.decodeValue(kd, row.messages) as ThreadMessage[] } : { version: 0, messages: [] };
  }

  async append(id: string, version: number, messages: readonly ThreadMessage[]): Promise<boolean> {
    const kd = this.codec.idOf(id);
    return this.db.transaction(() => {
      const row = this.db.query<{ version: number; messages: string }, [string]>("SELECT version, messages FROM luma_threads WHERE kd = ?").get(kd);
      if ((row?.version ?? 0) !== version) return false;
      const all = [...(row ? (this.codec.decodeValue(kd, row.messages) as ThreadMessage[]) : []), ...messages];
      this.db
        .query("INSERT OR REPLACE INTO luma_threads (kd, version, messages, id) VALUES (?, ?, ?, ?)")
        .run(kd, version + 1, this.codec.encodeValue(kd, all), this.codec.encodeValue(idBinding(kd), id));
      return true;
    }).immediate();
  }

  async list(): Promise<ListedThread[]> {
    return listed(this.codec, this.db.query<{ kd: string; version: number; id: string }, []>("SELECT kd, version, id FROM luma_threads WHERE id IS NOT NULL").all());
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
