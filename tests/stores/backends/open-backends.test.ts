/**
 * Spec §11 (extension): the sqlite, postgres and redis rows of the backends table, as
 * `luma.config.json` reaches them — relative sqlite paths, `url` / `url_env`, startup errors,
 * and credentials that never appear in a message.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LumaError } from "../../../src/diagnostics/luma-error";
import type { IdempotencyStoreConfig } from "../../../src/config/config-types";
import { systemClock } from "../../../src/runtime/base/clock";
import { openIdempotencyStore } from "../../../src/runtime/stores/open-idempotency-store";
import { PostgresIdempotencyStore } from "../../../src/runtime/stores/postgres/postgres-idempotency-store";
import { RedisIdempotencyStore } from "../../../src/runtime/stores/redis/redis-idempotency-store";
import { SqliteIdempotencyStore } from "../../../src/runtime/stores/sqlite/sqlite-idempotency-store";
import { missingService, serviceUrl, underCi } from "../conformance/service-urls";
import { isolatedUrl } from "./support/isolated-store-url";

const freshDir = () => mkdtempSync(join(tmpdir(), "luma-open-backends-"));
const ctx = (projectDir: string, env: Record<string, string> = {}) => ({ projectDir, env, warn: () => {} });
const openFailure = (config: IdempotencyStoreConfig, env: Record<string, string> = {}) =>
  openIdempotencyStore(config, ctx(freshDir(), env)).then(
    () => {
      throw new Error("expected a startup error");
    },
    (e: LumaError) => e,
  );

/** A test that needs a server: skipped with the reason here, failing under CI=true. */
const withService = (name: "LUMA_TEST_PG_URL" | "LUMA_TEST_REDIS_URL", title: string, body: () => Promise<void>) => {
  const reason = missingService(name);
  if (reason === undefined) test(title, body);
  else if (underCi()) test(title, () => void fail(reason));
  else test.skip(`${title} (skipped: ${reason})`, () => {});
};
const fail = (m: string): never => {
  throw new Error(m);
};

describe("§11 sqlite backend from the config", () => {
  test("a relative path is resolved against the project directory", async () => {
    const dir = freshDir();
    const store = await openIdempotencyStore({ backend: "sqlite", path: "state/idem.sqlite" }, ctx(dir));
    expect(store).toBeInstanceOf(SqliteIdempotencyStore);
    expect(existsSync(join(dir, "state", "idem.sqlite"))).toBe(true);
    await store!.close?.();
  });

  test("without a path the store is .luma-idempotency.sqlite in the project directory", async () => {
    const dir = freshDir();
    const store = await openIdempotencyStore({ backend: "sqlite" }, ctx(dir));
    expect(existsSync(join(dir, ".luma-idempotency.sqlite"))).toBe(true);
    await store!.close?.();
  });

  test("a file that is not a SQLite database is a startup error naming the path as configured", async () => {
    const dir = freshDir();
    await Bun.write(join(dir, "idem.sqlite"), "this is not a database, just text ".repeat(200));
    const e = await openIdempotencyStore({ backend: "sqlite", path: "idem.sqlite" }, ctx(dir)).then(
      () => undefined,
      (err: LumaError) => err,
    );
    expect(e).toBeInstanceOf(LumaError);
    expect(e!.phase).toBe("startup");
    expect(e!.message).toStartWith("Idempotency store idem.sqlite is not a readable SQLite database (file is not a database); the file was left unchanged");
  });
});

describe("§11 record stores: a sealed record altered at rest", () => {
  test("is a clear error on the next claim, never a silent miss (which could run the key twice)", async () => {
    const dir = freshDir();
    const opts = { path: join(dir, "idem.sqlite"), clock: systemClock, encryption: "aes-256-gcm" as const, passphrase: "pw for tamper test" };
    const store = SqliteIdempotencyStore.open(opts);
    const claim = store.claim({ key: "k", fingerprint: "fp", ttlMs: 60_000, leaseMs: 30_000 });
    if (claim.kind !== "claimed") throw new Error("expected a claim");
    store.complete("k", claim.token, { paid: true }, 60_000);
    store.close();
    const db = new Database(opts.path);
    const row = db.query<{ value: string }, []>("SELECT value FROM luma_idempotency_records").get()!;
    const [version, iv, tag, data] = row.value.split(".");
    const bytes = Buffer.from(data, "base64");
    bytes[0] ^= 1; // one bit of the ciphertext
    const flipped = [version, iv, tag, bytes.toString("base64")].join(".");
    db.query("UPDATE luma_idempotency_records SET value = ?").run(flipped);
    db.close();
    const reopened = SqliteIdempotencyStore.open(opts);
    let error: LumaError | undefined;
    try {
      reopened.claim({ key: "k", fingerprint: "fp", ttlMs: 60_000, leaseMs: 30_000 });
    } catch (e) {
      error = e as LumaError;
    }
    reopened.close();
    expect(error?.code).toBe("RUNTIME_ERROR");
    expect(error?.message).toBe(
      "Idempotency store " + opts.path + ": a stored record failed its integrity check (altered, or written with another key); it was left unchanged.",
    );
  });
});

describe("§11 postgres and redis backends: url and url_env", () => {
  for (const backend of ["postgres", "redis"] as const) {
    test(`${backend}: url_env naming an unset variable is a startup error naming the variable`, async () => {
      const e = await openFailure({ backend, url_env: "LUMA_NO_SUCH_STORE_URL" });
      expect(e.phase).toBe("startup");
      expect(e.message).toBe(`idempotency_store (${backend}): environment variable LUMA_NO_SUCH_STORE_URL is not set.`);
    });

    test(`${backend}: a store that cannot be reached is a startup error that never shows the password`, async () => {
      const secret = "s3cr3t-Pa55word";
      const url = `${backend}://someone:${secret}@127.0.0.1:1/db0`;
      for (const config of [{ backend, url }, { backend, url_env: "STORE_URL" }] as IdempotencyStoreConfig[]) {
        const e = await openFailure(config, { STORE_URL: url });
        expect(e.phase).toBe("startup");
        expect(e.message).toStartWith(`Idempotency store ${backend}://127.0.0.1:1/db0: cannot open it:`);
        expect(e.message).not.toContain(secret);
        expect(e.message).not.toContain("someone");
      }
    }, 30_000);

    test(`${backend}: a url that is not a URL is a startup error that does not echo it`, async () => {
      const e = await openFailure({ backend, url_env: "STORE_URL" }, { STORE_URL: "not a url with password hunter2" });
      expect(e.message).toBe(`idempotency_store (${backend}): environment variable STORE_URL does not hold a valid URL.`);
    });
  }

  withService("LUMA_TEST_PG_URL", "postgres: url_env opens the store on the server (its tables created if missing)", async () => {
    const own = await isolatedUrl("postgres");
    try {
      const store = await openIdempotencyStore({ backend: "postgres", url_env: "PG_URL" }, ctx(freshDir(), { PG_URL: own.url! }));
      expect(store).toBeInstanceOf(PostgresIdempotencyStore);
      await store!.close?.();
      const sql = new Bun.SQL({ url: own.url!, max: 1 });
      const tables = await sql.unsafe("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename");
      await sql.close();
      expect(tables.map((t: { tablename: string }) => t.tablename)).toEqual(["luma_idempotency", "luma_idempotency_meta"]);
    } finally {
      await own.cleanup();
    }
  });

  withService("LUMA_TEST_PG_URL", "postgres: a wrong password is a startup error that never shows either password", async () => {
    const good = new URL(serviceUrl("LUMA_TEST_PG_URL")!);
    const real = good.password;
    good.password = "wrong-Pa55word";
    const e = await openFailure({ backend: "postgres", url: good.toString() });
    expect(e.message).toStartWith(`Idempotency store postgres://${good.host}${good.pathname}: cannot open it:`);
    expect(e.message).not.toContain("wrong-Pa55word");
    expect(e.message).not.toContain(real);
  });

  withService("LUMA_TEST_REDIS_URL", "redis: url opens the store on the server", async () => {
    const own = await isolatedUrl("redis");
    try {
      const store = await openIdempotencyStore({ backend: "redis", url: own.url! }, ctx(freshDir()));
      expect(store).toBeInstanceOf(RedisIdempotencyStore);
      await store!.close?.();
    } finally {
      await own.cleanup();
    }
  });

  withService("LUMA_TEST_REDIS_URL", "redis: a wrong password is a startup error that never shows either password", async () => {
    const good = new URL(serviceUrl("LUMA_TEST_REDIS_URL")!);
    const real = good.password;
    good.password = "wrong-Pa55word";
    const e = await openFailure({ backend: "redis", url: good.toString() });
    expect(e.message).toStartWith(`Idempotency store redis://${good.host}${good.pathname}: cannot open it:`);
    expect(e.message).not.toContain("wrong-Pa55word");
    expect(e.message).not.toContain(real);
  });
});
