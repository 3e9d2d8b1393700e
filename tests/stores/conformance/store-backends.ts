/**
 * Every idempotency backend, behind one small interface, so the conformance cases run the
 * same way against each: memory, file, sqlite, postgres, redis. A "place" is one store's
 * storage (a directory, a table, a key prefix); opening a place twice gives two stores on
 * the same records, as two processes or machines would have.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "../../../src/runtime/base/clock";
import { FileIdempotencyStore } from "../../../src/runtime/stores/file/file-idempotency-store";
import type { IdempotencyStore } from "../../../src/runtime/stores/idempotency-store";
import { MemoryIdempotencyStore } from "../../../src/runtime/stores/memory-idempotency-store";
import { PostgresIdempotencyStore } from "../../../src/runtime/stores/postgres/postgres-idempotency-store";
import { RedisIdempotencyStore } from "../../../src/runtime/stores/redis/redis-idempotency-store";
import { SqliteIdempotencyStore } from "../../../src/runtime/stores/sqlite/sqlite-idempotency-store";
import { connectionOf } from "../../../src/runtime/stores/store-connection";
import { missingService, serviceUrl, uniqueName } from "./service-urls";

export interface OpenOptions {
  clock: Clock;
  encryption?: "aes-256-gcm";
  passphrase?: string;
}

export interface StoreBackend {
  name: "memory" | "file" | "sqlite" | "postgres" | "redis";
  /** Two stores on one place share records (processes, machines). */
  shared: boolean;
  /** In-flight records carry a lease that others take over once it passes. */
  leases: boolean;
  /** Records outlive the store object. */
  persistent: boolean;
  /** `encryption: "aes-256-gcm"` with LUMA_IDEMPOTENCY_KEY. */
  encryption: boolean;
  /** Why this backend cannot be tested here (a server is missing), else undefined. */
  unavailable(): string | undefined;
  newPlace(): string;
  open(place: string, opts: OpenOptions): Promise<IdempotencyStore>;
  /** Everything the store keeps at rest, as text (to show what encryption hides). */
  rawDump(place: string): Promise<string>;
  /** Drops what the place holds on the server (tables, keys). */
  dropPlace(place: string): Promise<void>;
}

const tempDir = () => mkdtempSync(join(tmpdir(), "luma-conformance-"));

const dumpDir = (dir: string): string =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile())
    .map((p) => readFileSync(p).toString("latin1"))
    .join("\n");

const memoryStores = new Map<string, MemoryIdempotencyStore>();

export const STORE_BACKENDS: StoreBackend[] = [
  {
    name: "memory",
    shared: false,
    leases: false,
    persistent: false,
    encryption: false,
    unavailable: () => undefined,
    newPlace: () => uniqueName("memory"),
    async open(place, opts) {
      const store = new MemoryIdempotencyStore(opts.clock);
      memoryStores.set(place, store);
      return store;
    },
    rawDump: async () => "",
    dropPlace: async (place) => void memoryStores.delete(place),
  },
  {
    name: "file",
    shared: true,
    leases: true,
    persistent: true,
    encryption: true,
    unavailable: () => undefined,
    newPlace: tempDir,
    open: async (dir, opts) => FileIdempotencyStore.open({ path: join(dir, "idem.json"), ...opts }),
    rawDump: async (dir) => dumpDir(dir),
    dropPlace: async () => {},
  },
  {
    name: "sqlite",
    shared: true,
    leases: true,
    persistent: true,
    encryption: true,
    unavailable: () => undefined,
    newPlace: tempDir,
    open: async (dir, opts) => SqliteIdempotencyStore.open({ path: join(dir, "idem.sqlite"), ...opts }),
    async rawDump(dir) {
      const db = new Database(join(dir, "idem.sqlite"), { readonly: true });
      try {
        return JSON.stringify([...db.query("SELECT * FROM luma_idempotency_records").all(), ...db.query("SELECT * FROM luma_idempotency_meta").all()]);
      } finally {
        db.close();
      }
    },
    dropPlace: async () => {},
  },
  {
    name: "postgres",
    shared: true,
    leases: true,
    persistent: true,
    encryption: true,
    unavailable: () => missingService("LUMA_TEST_PG_URL"),
    newPlace: () => uniqueName("luma_conf"),
    open: async (table, opts) =>
      PostgresIdempotencyStore.open({ connection: connectionOf("postgres", { url: serviceUrl("LUMA_TEST_PG_URL") }, {}), table, maxConnections: 2, ...opts }),
    async rawDump(table) {
      const sql = new Bun.SQL({ url: serviceUrl("LUMA_TEST_PG_URL")!, max: 1 });
      try {
        return JSON.stringify([...(await sql.unsafe(`SELECT * FROM ${table}`)), ...(await sql.unsafe(`SELECT * FROM ${table}_meta`))]);
      } finally {
        await sql.close();
      }
    },
    async dropPlace(table) {
      const sql = new Bun.SQL({ url: serviceUrl("LUMA_TEST_PG_URL")!, max: 1 });
      try {
        await sql.unsafe(`DROP TABLE IF EXISTS ${table}, ${table}_meta`);
      } finally {
        await sql.close();
      }
    },
  },
  {
    name: "redis",
    shared: true,
    leases: true,
    persistent: true,
    encryption: true,
    unavailable: () => missingService("LUMA_TEST_REDIS_URL"),
    newPlace: () => uniqueName("luma-conf") + ":",
    open: async (prefix, opts) =>
      RedisIdempotencyStore.open({ connection: connectionOf("redis", { url: serviceUrl("LUMA_TEST_REDIS_URL") }, {}), prefix, ...opts }),
    rawDump: (prefix) => withRedis(async (r) => {
      const keys = (await r.send("KEYS", [`${prefix}*`])) as string[];
      const parts: unknown[] = [];
      for (const k of keys) parts.push(k, await r.send("TYPE", [k]) === "hash" ? await r.send("HGETALL", [k]) : await r.send("GET", [k]));
      return JSON.stringify(parts);
    }),
    dropPlace: (prefix) => withRedis(async (r) => {
      const keys = (await r.send("KEYS", [`${prefix}*`])) as string[];
      if (keys.length > 0) await r.send("DEL", keys);
    }),
  },
];

const withRedis = async <T>(f: (r: InstanceType<typeof Bun.RedisClient>) => Promise<T>): Promise<T> => {
  const r = new Bun.RedisClient(serviceUrl("LUMA_TEST_REDIS_URL")!);
  try {
    return await f(r);
  } finally {
    r.close();
  }
};
