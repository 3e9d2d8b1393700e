import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { runProgram, tempDir } from "./run-luma-program";

/** A real SQLite file with a few customers, in a fresh temp directory. */
function seededDir(): string {
  const dir = tempDir();
  mkdirSync(join(dir, "data"));
  const db = new Database(join(dir, "data", "shop.db"), { create: true });
  db.run("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, tier TEXT, revenue REAL NOT NULL DEFAULT 0)");
  db.run("INSERT INTO customers(name, tier, revenue) VALUES ('Ada', 'gold', 900), ('Bob', NULL, 300), ('Cy', 'basic', 600)");
  db.close();
  return dir;
}

const HEADER = `
datasource Shop { url: "sqlite:data/shop.db" }
schema Customer {
  id: int
  name: string
  tier?: enum["basic", "gold"] @default("basic")
}
schema Inserted { id: int }
schema Affected { rows_affected: int }
`;

const count = (dir: string, where = "1=1") => {
  const db = new Database(join(dir, "data", "shop.db"));
  try {
    return (db.query(`SELECT count(*) AS n FROM customers WHERE ${where}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("§12 built-in SQLite bridge (url: \"sqlite:PATH\")", () => {
  test("queries a real SQLite file; the path is relative to the program's directory, not the working directory", () => {
    const dir = seededDir();
    mkdirSync(join(dir, "elsewhere"));
    const file = join(dir, "main.luma");
    writeFileSync(file, `${HEADER}
query top(limit: int @default(10)) -> Customer[] {
  source: Shop
  sql: "SELECT id, name, tier FROM customers ORDER BY revenue DESC LIMIT $1"
}
for c in query top({ limit: 2 }) { print(c.name, c.tier) }`);
    const r = runLuma([file], { cwd: join(dir, "elsewhere") });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Ada gold\nCy basic\n");
    expect(r.exitCode).toBe(0);
  });

  test("`$N` placeholders bind by number even when they appear out of order", async () => {
    const r = await runProgram(`${HEADER}
query between(low: float, high: float) -> Customer[] {
  source: Shop
  sql: "SELECT id, name, tier FROM customers WHERE revenue <= $2 AND revenue >= $1 ORDER BY id"
}
print(len(query between({ low: 500, high: 1000 })))`, { dir: seededDir() });
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["2"]);
  });

  test("SQL injection attempts through parameters stay data", async () => {
    const dir = seededDir();
    const r = await runProgram(`${HEADER}
command add(name: string) -> Inserted {
  source: Shop
  sql: "INSERT INTO customers(name) VALUES ($1) RETURNING id"
}
query named(name: string) -> Customer[] {
  source: Shop
  sql: "SELECT id, name, tier FROM customers WHERE name = $1"
}
evil = "x'); DROP TABLE customers; --"
added = command add({ name: evil })
print(added.id)
print(len(query named({ name: "' OR '1'='1" })))
print(query named({ name: evil })[0].name == evil)`, { dir });
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["4", "0", "true"]);
    expect(count(dir)).toBe(4);
  });

  test("a command that returns no rows answers { rows_affected }", async () => {
    const dir = seededDir();
    const r = await runProgram(`${HEADER}
command promote(tier: string, min: float) -> Affected {
  source: Shop
  sql: "UPDATE customers SET tier = $1 WHERE revenue >= $2"
}
print(command promote({ tier: "gold", min: 500 }).rows_affected)`, { dir });
    expect(r.out).toEqual(["2"]);
    expect(count(dir, "tier = 'gold'")).toBe(2);
  });

  test("?mode=ro opens the file read-only: a write fails with a clear error naming the command and datasource", async () => {
    const dir = seededDir();
    const r = await runProgram(`
datasource Shop { url: "sqlite:data/shop.db?mode=ro" }
schema Affected { rows_affected: int }
command wipe() -> Affected { source: Shop  sql: "DELETE FROM customers" }
command wipe({})`, { dir });
    expect(r.error?.code).toBe("TOOL_HANDLER_ERROR");
    expect(r.error?.message).toMatch(/^Command 'wipe' \(datasource 'Shop'\) failed: .*readonly.*\(SQLITE_READONLY\)$/);
    expect(count(dir)).toBe(3);
  });

  test("an SQL error names the query, the datasource and the driver's code", async () => {
    const r = await runProgram(`${HEADER}
query nope() -> Customer[] { source: Shop  sql: "SELECT * FROM no_such_table" }
query nope({})`, { dir: seededDir() });
    expect(r.error?.message).toBe("Query 'nope' (datasource 'Shop') failed: no such table: no_such_table (SQLITE_ERROR)");
    expect(r.error?.details).toMatchObject({ query: "nope", datasource: "Shop", driver_code: "SQLITE_ERROR" });
  });

  test("sqlite::memory: needs no file; objects and booleans are bound as JSON text and 1/0", async () => {
    const r = await runProgram(`
datasource Mem { url: "sqlite::memory:" }
schema Affected { rows_affected: int }
schema Row { doc: string  flag: int }
command init() -> Affected { source: Mem  sql: "CREATE TABLE t(doc TEXT, flag INTEGER)" }
command put(doc: any, flag: bool) -> Affected { source: Mem  sql: "INSERT INTO t VALUES ($1, $2)" }
query all() -> Row[] { source: Mem  sql: "SELECT doc, flag FROM t" }
command init({})
command put({ doc: { a: [1, 2] }, flag: true })
print(query all({}))`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual([JSON.stringify([{ doc: '{"a":[1,2]}', flag: 1 }])]);
  });
});
