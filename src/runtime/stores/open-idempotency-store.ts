/**
 * Builds the idempotency store `luma.config.json` asks for (spec §11), at startup, so that
 * its errors (missing LUMA_IDEMPOTENCY_KEY, a wrong key, an unreadable file) stop the
 * program before its first statement. Backends are loaded only when configured: the file
 * store brings node:crypto and FFI, which a program without it never loads.
 *
 * A backend is one row of BACKENDS. The network backends (postgres, redis) take `url` or
 * `url_env`; every backend but memory takes `encryption` with LUMA_IDEMPOTENCY_KEY.
 */
import { resolve } from "node:path";
import type { IdempotencyStoreConfig } from "../../config/config-types";
import { systemClock, type Clock } from "../base/clock";
import type { IdempotencyStore } from "./idempotency-store";

export const DEFAULT_FILE_STORE_PATH = ".luma-idempotency.json";
export const DEFAULT_SQLITE_STORE_PATH = ".luma-idempotency.sqlite";

export interface OpenStoreContext {
  /** The project directory (spec §10): relative paths resolve against it. */
  projectDir: string;
  env: Record<string, string | undefined>;
  warn: (line: string) => void;
  clock?: Clock;
}

type Opener = (config: IdempotencyStoreConfig, ctx: OpenStoreContext) => Promise<IdempotencyStore | undefined>;

const BACKENDS: Record<IdempotencyStoreConfig["backend"], Opener> = {
  // undefined: the pipeline's own process-local memory store
  memory: async () => undefined,
  file: async (config, ctx) => {
    const { FileIdempotencyStore } = await import("./file/file-idempotency-store");
    const shown = config.path ?? DEFAULT_FILE_STORE_PATH;
    return FileIdempotencyStore.open({
      path: resolve(ctx.projectDir, shown),
      displayPath: shown,
      encryption: config.encryption,
      passphrase: ctx.env.LUMA_IDEMPOTENCY_KEY,
      clock: ctx.clock ?? systemClock,
    });
  },
  sqlite: async (config, ctx) => {
    const { SqliteIdempotencyStore } = await import("./sqlite/sqlite-idempotency-store");
    const shown = config.path ?? DEFAULT_SQLITE_STORE_PATH;
    return SqliteIdempotencyStore.open({
      path: resolve(ctx.projectDir, shown),
      displayPath: shown,
      encryption: config.encryption,
      passphrase: ctx.env.LUMA_IDEMPOTENCY_KEY,
      clock: ctx.clock ?? systemClock,
    });
  },
  postgres: async (config, ctx) => {
    const [{ PostgresIdempotencyStore }, { connectionOf }] = await Promise.all([
      import("./postgres/postgres-idempotency-store"),
      import("./store-connection"),
    ]);
    return PostgresIdempotencyStore.open({
      connection: connectionOf("postgres", config, ctx.env),
      encryption: config.encryption,
      passphrase: ctx.env.LUMA_IDEMPOTENCY_KEY,
      clock: ctx.clock ?? systemClock,
    });
  },
  redis: async (config, ctx) => {
    const [{ RedisIdempotencyStore }, { connectionOf }] = await Promise.all([
      import("./redis/redis-idempotency-store"),
      import("./store-connection"),
    ]);
    return RedisIdempotencyStore.open({
      connection: connectionOf("redis", config, ctx.env),
      encryption: config.encryption,
      passphrase: ctx.env.LUMA_IDEMPOTENCY_KEY,
      clock: ctx.clock ?? systemClock,
    });
  },
};

/** The configured store, or undefined for the default memory store. */
export const openIdempotencyStore = (config: IdempotencyStoreConfig | undefined, ctx: OpenStoreContext): Promise<IdempotencyStore | undefined> =>
  config === undefined ? Promise.resolve(undefined) : BACKENDS[config.backend](config, ctx);
