/** A store of the test's own on the shared test servers, for code that opens the default table / key prefix. */
import { DEFAULT_REDIS_PREFIX } from "../../../../src/runtime/stores/redis/redis-idempotency-store";
import { serviceUrl, uniqueName } from "../../conformance/service-urls";

/**
 * A file or sqlite store lives in the project directory: nothing to isolate. The config
 * cannot name a table or key prefix, so each project gets a store of its own on
 * the servers: a fresh schema (postgres, via `?search_path=` in the URL) or an emptied
 * Redis database (the default key prefix there is cleared before and after). One project's
 * cleanup must never empty the database another project's processes are using — another test
 * of this file, a file in another `bun test --parallel` worker, or another `bun test` on the
 * same server — so a project claims one of databases 1–15 with a key in database 0 (SET NX,
 * expiring in case this process dies), and gives it back at cleanup.
 */
const CLAIM_MS = 10 * 60_000;
const claimKey = (db: number) => `luma-test-redis-db-claim:${db}`;

async function claimRedisDb(base: string): Promise<{ db: number; release(): Promise<void> }> {
  const u = new URL(base);
  u.pathname = "/0";
  const r = new Bun.RedisClient(u.toString());
  const owner = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    for (let attempt = 0; ; attempt++) {
      for (let db = 1; db <= 15; db++) {
        if ((await r.send("SET", [claimKey(db), owner, "NX", "PX", String(CLAIM_MS)])) === "OK") {
          return {
            db,
            async release() {
              const c = new Bun.RedisClient(u.toString());
              if ((await c.send("GET", [claimKey(db)])) === owner) await c.send("DEL", [claimKey(db)]);
              c.close();
            },
          };
        }
      }
      if (attempt > 600) throw new Error("no Redis database of 1–15 was free for a minute");
      await Bun.sleep(100);
    }
  } finally {
    r.close();
  }
}

export const isolatedUrl = async (backend: "file" | "sqlite" | "postgres" | "redis"): Promise<{ url?: string; cleanup(): Promise<void> }> => {
  if (backend === "postgres") {
    const base = serviceUrl("LUMA_TEST_PG_URL")!;
    const schema = uniqueName("luma_proc");
    const admin = new Bun.SQL({ url: base, max: 1 });
    await admin.unsafe(`CREATE SCHEMA ${schema}`);
    await admin.close();
    return {
      url: `${base}${base.includes("?") ? "&" : "?"}search_path=${schema}`,
      async cleanup() {
        const sql = new Bun.SQL({ url: base, max: 1 });
        await sql.unsafe(`DROP SCHEMA ${schema} CASCADE`);
        await sql.close();
      },
    };
  }
  if (backend === "redis") {
    const base = serviceUrl("LUMA_TEST_REDIS_URL")!;
    const claim = await claimRedisDb(base);
    const u = new URL(base);
    u.pathname = `/${claim.db}`;
    const clear = async () => {
      const r = new Bun.RedisClient(u.toString());
      const keys = (await r.send("KEYS", [`${DEFAULT_REDIS_PREFIX}*`])) as string[];
      if (keys.length > 0) await r.send("DEL", keys);
      r.close();
    };
    await clear();
    return {
      url: u.toString(),
      async cleanup() {
        await clear();
        await claim.release();
      },
    };
  }
  return { cleanup: async () => {} };
};

