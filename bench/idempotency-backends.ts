/**
 * Issue #7 figures: idempotent write-tool calls per second through the whole pipeline, per
 * idempotency backend, with 1 and with 4 worker processes sharing one store. Every call
 * has a fresh key, so each one is a full claim → handler → complete (the write path; a
 * replay is one read). Each worker calls in a loop, one call at a time, like an agent
 * worker, for DURATION_MS after a common start; the figure is all workers' calls / time.
 *
 * memory is per process (not shared: 4 processes are 4 stores); file and sqlite share a
 * file on this machine; postgres and redis use the servers of .ci/services (skipped when
 * LUMA_TEST_PG_URL / LUMA_TEST_REDIS_URL are missing), each run in a table / key prefix of
 * its own, dropped afterwards.
 *
 * Run as a script with `worker <backend> <place> <startAt> <durationMs>`, this file is
 * one worker process. With few cores, 4 processes share them (the figures say how many).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../src/runtime/base/clock";
import { createToolInvoker } from "../src/runtime/tools/pipeline";
import type { IdempotencyStore } from "../src/runtime/stores/idempotency-store";
import { connectionOf } from "../src/runtime/stores/store-connection";
import { createSchemaTable } from "../src/schema/schema-table";
import { parse } from "../src/syntax/parse";
import { fmt } from "./measure";

const SOURCE = `
schema Written { id: string  value: string }
tool db_write(request_id: string, value: string) -> Written {
  side_effects: "write"
  idempotent: true
  idempotency_key: request_id
  idempotency_ttl_ms: 600000
}
`;

const DURATION_MS = 2000;
type Backend = "memory" | "file" | "sqlite" | "postgres" | "redis";
const BACKENDS: Backend[] = ["memory", "file", "sqlite", "postgres", "redis"];

const servicesEnv = (name: string): string | undefined => {
  if (process.env[name]) return process.env[name];
  try {
    const text = readFileSync(join(import.meta.dir, "..", ".ci", "services.env"), "utf8");
    return text.split("\n").find((l) => l.startsWith(`${name}=`))?.slice(name.length + 1).trim();
  } catch {
    return undefined;
  }
};

const openStore = async (backend: Backend, place: string): Promise<IdempotencyStore | undefined> => {
  const clock = systemClock;
  switch (backend) {
    case "memory":
      return undefined;
    case "file": {
      const { FileIdempotencyStore } = await import("../src/runtime/stores/file/file-idempotency-store");
      return FileIdempotencyStore.open({ path: join(place, "idem.json"), clock });
    }
    case "sqlite": {
      const { SqliteIdempotencyStore } = await import("../src/runtime/stores/sqlite/sqlite-idempotency-store");
      return SqliteIdempotencyStore.open({ path: join(place, "idem.sqlite"), clock });
    }
    case "postgres": {
      const { PostgresIdempotencyStore } = await import("../src/runtime/stores/postgres/postgres-idempotency-store");
      return PostgresIdempotencyStore.open({ connection: connectionOf("postgres", { url: servicesEnv("LUMA_TEST_PG_URL") }, {}), table: place, clock });
    }
    case "redis": {
      const { RedisIdempotencyStore } = await import("../src/runtime/stores/redis/redis-idempotency-store");
      return RedisIdempotencyStore.open({ connection: connectionOf("redis", { url: servicesEnv("LUMA_TEST_REDIS_URL") }, {}), prefix: place, clock });
    }
  }
};

/** One worker process: calls the write tool with fresh keys until the time is up; prints its count. */
async function worker(backend: Backend, place: string, startAt: number, durationMs: number): Promise<void> {
  const store = await openStore(backend, place);
  const program = parse(SOURCE, "bench.luma").program!;
  const tools = createToolInvoker({
    program,
    schemas: createSchemaTable(program),
    registry: { handler: () => async (i: { request_id: string; value: string }) => ({ id: i.request_id, value: i.value }) },
    config: {},
    env: {},
    warn: () => {},
    idempotencyStore: store,
  });
  const call = (key: string) => tools.call({ tool: "db_write", input: { request_id: key, value: "v" }, mode: "direct" });
  for (let i = 0; i < 100; i++) await call(`warm-${process.pid}-${i}`);
  await Bun.sleep(Math.max(0, startAt - Date.now()));
  const end = startAt + durationMs;
  let n = 0;
  while (Date.now() < end) await call(`${process.pid}-${n++}`);
  console.log(String(n));
  await store?.close?.();
}

async function run(backend: Backend, processes: number): Promise<number> {
  const place =
    backend === "postgres" ? `luma_bench_${process.pid}_${processes}` : backend === "redis" ? `luma-bench:${process.pid}:${processes}:` : mkdtempSync(join(tmpdir(), "luma-bench-idem-"));
  const startAt = Date.now() + 1500; // room for every worker to start, open the store and warm up
  const procs = Array.from({ length: processes }, () =>
    Bun.spawn(["bun", import.meta.path, "worker", backend, place, String(startAt), String(DURATION_MS)], { stdout: "pipe", stderr: "inherit" }),
  );
  const counts = await Promise.all(procs.map(async (p) => Number((await new Response(p.stdout).text()).trim())));
  await cleanup(backend, place);
  return counts.reduce((a, b) => a + b, 0) / (DURATION_MS / 1000);
}

async function cleanup(backend: Backend, place: string): Promise<void> {
  if (backend === "postgres") {
    const sql = new Bun.SQL({ url: servicesEnv("LUMA_TEST_PG_URL")!, max: 1 });
    await sql.unsafe(`DROP TABLE IF EXISTS ${place}, ${place}_meta`);
    await sql.close();
  } else if (backend === "redis") {
    const r = new Bun.RedisClient(servicesEnv("LUMA_TEST_REDIS_URL")!);
    let cursor = "0";
    do {
      const [next, keys] = (await r.send("SCAN", [cursor, "MATCH", `${place}*`, "COUNT", "1000"])) as [string, string[]];
      cursor = next;
      if (keys.length > 0) await r.send("DEL", keys);
    } while (cursor !== "0");
    r.close();
  } else if (backend !== "memory") rmSync(place, { recursive: true, force: true });
}

export async function benchIdempotencyBackends(): Promise<void> {
  console.log(
    `idempotency backends: idempotent write-tool calls/s (fresh key per call, ${DURATION_MS / 1000} s, all processes together, ${navigator.hardwareConcurrency} cores)`,
  );
  console.log(`  ${"backend".padEnd(10)} ${"1 process".padStart(12)} ${"4 processes".padStart(12)}`);
  for (const backend of BACKENDS) {
    const missing = backend === "postgres" ? !servicesEnv("LUMA_TEST_PG_URL") : backend === "redis" ? !servicesEnv("LUMA_TEST_REDIS_URL") : false;
    if (missing) {
      console.log(`  ${backend.padEnd(10)} skipped (no ${backend === "postgres" ? "LUMA_TEST_PG_URL" : "LUMA_TEST_REDIS_URL"}; run .ci/services/${backend === "postgres" ? "postgres" : "redis"}.sh)`);
      continue;
    }
    const one = await run(backend, 1);
    const four = await run(backend, 4);
    console.log(`  ${backend.padEnd(10)} ${fmt(one, 0).padStart(12)} ${fmt(four, 0).padStart(12)}${backend === "memory" ? "   (per-process stores, not shared)" : ""}`);
  }
  console.log("");
}

if (import.meta.main && process.argv[2] === "worker") {
  const [, , , backend, place, startAt, duration] = process.argv;
  await worker(backend as Backend, place, Number(startAt), Number(duration));
} else if (import.meta.main) {
  await benchIdempotencyBackends();
}
