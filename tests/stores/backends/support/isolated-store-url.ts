/** A store of the test's own on the shared test servers, for code that opens the default table / key prefix. */
import { DEFAULT_REDIS_PREFIX } from "../../../../src/runtime/stores/redis/redis-idempotency-store";
import { serviceUrl, uniqueName } from "../../conformance/service-urls";

/**
 * A file or sqlite store lives in the project directory: nothing to isolate. The config
 * cannot name a table or key prefix, so each project gets a store of its own on
 * the servers: a fresh schema (postgres, via `?search_path=` in the URL) or an emptied
 * Redis database (the default key prefix there is cleared before and after). Tests in one file
 * run concurrently, so each project takes the next of databases 1–15 in turn: one project's
 * cleanup must never empty the database another project's processes are using.
 */
let nextRedisDb = 0;
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
    const u = new URL(serviceUrl("LUMA_TEST_REDIS_URL")!);
    u.pathname = `/${(nextRedisDb++ % 15) + 1}`;
    const clear = async () => {
      const r = new Bun.RedisClient(u.toString());
      const keys = (await r.send("KEYS", [`${DEFAULT_REDIS_PREFIX}*`])) as string[];
      if (keys.length > 0) await r.send("DEL", keys);
      r.close();
    };
    await clear();
    return { url: u.toString(), cleanup: clear };
  }
  return { cleanup: async () => {} };
};

