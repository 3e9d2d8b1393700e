import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventsOf, runProgram } from "./run-luma-program";
import { requireService } from "./service-env";

const PG_URL = requireService("LUMA_TEST_PG_URL", ".ci/services/postgres.sh");
// Each run works in its own schema, dropped at the end, so runs never see each other's rows.
const SCHEMA = `luma_ds_${process.pid}_${Date.now().toString(36)}`;
const pgTest = PG_URL ? test : test.skip;

let admin: InstanceType<typeof Bun.SQL> | undefined;

beforeAll(async () => {
  if (!PG_URL) return;
  admin = new Bun.SQL(PG_URL);
  await admin.unsafe(`CREATE SCHEMA ${SCHEMA}`);
  await admin.unsafe(
    `CREATE TABLE ${SCHEMA}.customers(id serial PRIMARY KEY, name text NOT NULL, tier text, revenue float8 NOT NULL DEFAULT 0, joined timestamptz NOT NULL DEFAULT '2024-01-02T03:04:05Z')`,
  );
  await admin.unsafe(`INSERT INTO ${SCHEMA}.customers(name, tier, revenue) VALUES ('Ada', 'gold', 900), ('Bob', NULL, 300), ('Cy', 'basic', 600)`);
});

afterAll(async () => {
  if (!admin) return;
  await admin.unsafe(`DROP SCHEMA ${SCHEMA} CASCADE`);
  await admin.close();
});

const HEADER = `
datasource Warehouse { url_env: "DATABASE_URL" }
schema Customer {
  id: int
  name: string
  tier?: enum["basic", "gold"] @default("basic")
}
schema Inserted { id: int }
schema Affected { rows_affected: int }
schema Count { n: int }
`;

const run = (body: string, env: Record<string, string> = {}) =>
  runProgram(`${HEADER}${body.replaceAll("S.", `${SCHEMA}.`)}`, { env: { DATABASE_URL: PG_URL!, ...env } });

describe("§12 built-in Postgres bridge (url_env / postgres://, Bun.sql) against a real server", () => {
  pgTest("a query returns validated rows; int8 (COUNT(*)) arrives as an int; defaults fill NULL optional columns", async () => {
    const r = await run(`
query top(limit: int @default(10)) -> Customer[] {
  source: Warehouse
  sql: "SELECT id, name, tier FROM S.customers ORDER BY revenue DESC LIMIT $1"
}
query total() -> Count { source: Warehouse  sql: "SELECT count(*) AS n FROM S.customers" }
for c in query top({ limit: 3 }) { print(c.name, c.tier) }
print(query total({}).n + 0)`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["Ada gold", "Cy basic", "Bob basic", "3"]);
    expect(eventsOf(r, "query.call")).toHaveLength(2);
  });

  pgTest("commands: INSERT … RETURNING gives the declared schema; a statement without rows gives { rows_affected }", async () => {
    const r = await run(`
command add(name: string, revenue: float) -> Inserted {
  source: Warehouse
  sql: "INSERT INTO S.customers(name, revenue) VALUES ($1, $2) RETURNING id"
}
command drop_small(max: float) -> Affected {
  source: Warehouse
  sql: "DELETE FROM S.customers WHERE revenue < $1 AND name LIKE 'tmp-%'"
}
a = command add({ name: "tmp-1", revenue: 1 })
b = command add({ name: "tmp-2", revenue: 2 })
print(b.id - a.id)
print(command drop_small({ max: 10 }).rows_affected)`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["1", "2"]);
  });

  pgTest("SQL injection attempts through parameters stay data", async () => {
    const evil = `x'); DROP TABLE ${SCHEMA}.customers; --`;
    const r = await run(`
command add(name: string) -> Inserted { source: Warehouse  sql: "INSERT INTO S.customers(name) VALUES ($1) RETURNING id" }
query named(name: string) -> Customer[] { source: Warehouse  sql: "SELECT id, name, tier FROM S.customers WHERE name = $1" }
command remove(name: string) -> Affected { source: Warehouse  sql: "DELETE FROM S.customers WHERE name = $1" }
evil = ${JSON.stringify(evil)}
command add({ name: evil })
print(len(query named({ name: "' OR '1'='1" })))
print(query named({ name: evil })[0].name == evil)
print(command remove({ name: evil }).rows_affected)`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["0", "true", "1"]);
    const [{ n }] = await admin!.unsafe(`SELECT count(*)::int AS n FROM ${SCHEMA}.customers`);
    expect(n).toBe(3);
  });

  pgTest("parameters keep their types: numbers, booleans, null, JSON objects; timestamps come back as ISO strings", async () => {
    const r = await run(`
schema Mixed { i: int  f: float  b: bool  nothing?: string  doc: any  at: string }
query mixed(i: int, f: float, b: bool, nothing?: string, doc: any) -> Mixed {
  source: Warehouse
  sql: "SELECT $1::int AS i, $2::float8 AS f, $3::bool AS b, $4::text AS nothing, $5::jsonb AS doc, joined AS at FROM S.customers WHERE name = 'Ada'"
}
m = query mixed({ i: 7, f: 2.5, b: true, doc: { k: [1, 2] } })
print(m.i, m.f, m.b, m.nothing, m.at)`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["7 2.5 true null 2024-01-02T03:04:05.000Z"]);
  });

  pgTest("a timeout cancels the statement (TOOL_TIMEOUT naming query and datasource) and the datasource stays usable", async () => {
    // The next statement runs outside the 100 ms agent, under the default timeout: inside it,
    // a loaded machine's round trips timed it out too.
    const r = await run(`
query slow() -> Count { source: Warehouse  sql: "SELECT 1 AS n FROM pg_sleep(5)" }
query total() -> Count { source: Warehouse  sql: "SELECT count(*) AS n FROM S.customers" }
agent Reporter {
  tool_timeout: 100
  fn run() {
    try { query slow({}) } catch e { print(e.code, e.message) }
  }
}
Reporter.run()
print(query total({}).n)`);
    expect(r.error).toBeUndefined();
    expect(r.out[0]).toBe("TOOL_TIMEOUT Query 'slow' (datasource 'Warehouse') timed out after 100 ms.");
    expect(r.out[1]).toMatch(/^\d+$/);
  });

  pgTest("a literal postgres:// url works as well as url_env", async () => {
    const r = await runProgram(`
datasource Db { url: ${JSON.stringify(PG_URL)} }
schema One { one: int }
query one() -> One { source: Db  sql: "SELECT 1 AS one" }
print(query one({}).one)`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["1"]);
  });

  pgTest("connection refused: a clear error naming query and datasource, and the password never printed", async () => {
    const refused = PG_URL!.replace(/:(\d+)\//, ":1/").replace(/:[^:@/]+@/, ":n0t-Th3-pw@");
    const r = await run(`
query total() -> Count { source: Warehouse  sql: "SELECT 1 AS n" }
query total({})`, { DATABASE_URL: refused });
    expect(r.error?.code).toBe("TOOL_HANDLER_ERROR");
    expect(r.error?.retryable).toBe(true);
    expect(r.error?.message).toMatch(/^Query 'total' \(datasource 'Warehouse'\) failed: .*\(ERR_POSTGRES_CONNECTION_REFUSED\)$/);
    expect(JSON.stringify({ m: r.error?.message, d: r.error?.details, t: r.trace, e: r.err })).not.toContain("n0t-Th3-pw");
  });

  pgTest("a wrong password: the server's refusal is reported, the password is not", async () => {
    const wrong = PG_URL!.replace(/:[^:@/]+@/, ":Wr0ngPassw0rd@");
    const r = await run(`
query total() -> Count { source: Warehouse  sql: "SELECT 1 AS n" }
query total({})`, { DATABASE_URL: wrong });
    expect(r.error?.message).toContain("Query 'total' (datasource 'Warehouse') failed: password authentication failed");
    expect(r.error?.message).not.toContain("Wr0ngPassw0rd");
  });
});
