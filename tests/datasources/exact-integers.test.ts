/**
 * Issue #10 item 6: a 64-bit integer is read exactly or refused, never as a silently
 * different number — through the real `dist/luma`, against a real SQLite file and the real
 * PostgreSQL server. 2^53 + 1 = 9007199254740993 is the smallest integer a double rounds.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { tempDir } from "./run-luma-program";
import { pgSchema } from "./pg-schema";
import { requireService } from "./service-env";

const BIG = "9007199254740993";

function sqliteProgram(body: string): { dir: string; file: string } {
  const dir = tempDir();
  const db = new Database(join(dir, "ids.db"), { create: true });
  db.run("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
  db.run(`INSERT INTO items(id, name) VALUES (${BIG}, 'big'), (7, 'small')`);
  db.close();
  const file = join(dir, "main.luma");
  writeFileSync(file, `datasource Ids { url: "sqlite:ids.db" }
schema AsInt { id: int  name: string }
schema AsText { id: string  name: string }
${body}`);
  return { dir, file };
}

describe("§12 rows: 64-bit integers from SQLite (safeIntegers)", () => {
  test("an INTEGER beyond 2^53 in an `int` field is QUERY_ROW_INVALID naming the row and the column, never a rounded number", () => {
    const { file } = sqliteProgram(`query all() -> AsInt[] { source: Ids  sql: "SELECT id, name FROM items ORDER BY name" }
try { print(query all({})) } catch e { print(e.code, e.details.row, e.details.field, e.details.rule) print(e.message) }`);
    const r = runLuma([file]);
    expect(r.stderr).toBe("");
    const [head, message] = r.stdout.trim().split("\n");
    expect(head).toBe("QUERY_ROW_INVALID 0 id safe_integer");
    expect(message).toContain("Query 'all' (datasource 'Ids') returned an invalid row 0: column 'id'");
    expect(message).toContain("declare the field `string`");
    expect(r.stdout).not.toContain("9007199254740992");
  });

  test("a field declared `string` gets the exact digits, and a lookup by them (a string bound to an INTEGER column) finds the row", () => {
    const { file } = sqliteProgram(`query one(id: string) -> AsText { source: Ids  sql: "SELECT id, name FROM items WHERE id = $1" }
query small() -> AsInt { source: Ids  sql: "SELECT id, name FROM items WHERE id = 7" }
row: AsText = query one({ id: "${BIG}" })
print(row.id, row.name)
seven: AsText = query one({ id: "7" })
print(seven.id)
small: AsInt = query small({})
print(small.id + 1)`);
    const r = runLuma([file]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`${BIG} big\n7\n8\n`);
    expect(r.exitCode).toBe(0);
  });

  test("a string parameter inserted into an INTEGER column stays exact", () => {
    const { dir, file } = sqliteProgram(`schema Affected { rows_affected: int }
command add(id: string, name: string) -> Affected { source: Ids  sql: "INSERT INTO items(id, name) VALUES ($1, $2)" }
print(command add({ id: "9007199254740995", name: "next" }).rows_affected)`);
    const r = runLuma([file]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("1\n");
    const db = new Database(join(dir, "ids.db"), { safeIntegers: true });
    expect((db.query("SELECT id FROM items WHERE name = 'next'").get() as { id: bigint }).id).toBe(9007199254740995n);
    db.close();
  });

  test("an int parameter computed past 2^53 is TOOL_INPUT_INVALID naming the parameter, not a lookup of another row", () => {
    const { file } = sqliteProgram(`query byId(id: int) -> AsText[] { source: Ids  sql: "SELECT id, name FROM items WHERE id = $1" }
n = 9007199254740991
try { print(query byId({ id: n + 2 })) } catch e { print(e.code, e.details.param) print(e.message) }`);
    const r = runLuma([file]);
    expect(r.stderr).toBe("");
    const [head, message] = r.stdout.trim().split("\n");
    expect(head).toBe("TOOL_INPUT_INVALID id");
    expect(message).toBe("Query 'byId' (datasource 'Ids'): parameter 'id' is an integer beyond ±(2^53−1), which is not exact; pass it as a string of digits.");
  });
});

describe("§1 number literals: an integer literal must be exact", () => {
  test("an integer literal beyond 2^53−1 is a check error at its file:line:col (exit 2), whatever it is used for", () => {
    const { file } = sqliteProgram(`query byId(id: int) -> AsText[] { source: Ids  sql: "SELECT id, name FROM items WHERE id = $1" }
print(query byId({ id: ${BIG} }))`);
    const r = runLuma([file]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("main.luma:5:24");
    expect(r.stderr).toContain("Integer literal is beyond ±9007199254740991 (2^53−1) and would read as a different number; write it as a string of digits.");
  });

  test("the largest exact integer and fractions stay allowed", () => {
    const dir = tempDir();
    const file = join(dir, "main.luma");
    writeFileSync(file, `print(9007199254740991, -9007199254740991, 0.5, 1.5e300 > 1, 2.5)\n`);
    const r = runLuma([file]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("9007199254740991 -9007199254740991 0.5 true 2.5\n");
  });
});

const PG_URL = requireService("LUMA_TEST_PG_URL", ".ci/services/postgres.sh");
const pgTest = PG_URL ? test : test.skip;
const PG = pgSchema(PG_URL, "luma_hsql_int", [
  `CREATE TABLE S.items(id int8 PRIMARY KEY, name text NOT NULL)`,
  `INSERT INTO S.items VALUES (${BIG}, 'big'), (7, 'small')`,
]);
const SCHEMA = PG.name;

function pgRun(body: string) {
  const dir = tempDir();
  const file = join(dir, "main.luma");
  writeFileSync(file, `datasource Pg { url_env: "DATABASE_URL" }
schema AsInt { id: int  name: string }
schema AsText { id: string  name: string }
${body.replaceAll("S.", `${SCHEMA}.`)}`);
  return runLuma([file], { env: { DATABASE_URL: PG_URL! } });
}

describe("§12 rows: 64-bit integers from Postgres (int8)", () => {
  pgTest("an int8 beyond 2^53 in an `int` field is QUERY_ROW_INVALID naming row and column; declared `string` it is exact, and a lookup by it finds the row", () => {
    const r = pgRun(`query asInt() -> AsInt[] { source: Pg  sql: "SELECT id, name FROM S.items ORDER BY id" }
query one(id: string) -> AsText { source: Pg  sql: "SELECT id, name FROM S.items WHERE id = $1" }
try { print(query asInt({})) } catch e { print(e.code, e.details.row, e.details.field) }
row: AsText = query one({ id: "${BIG}" })
print(row.id, row.name)
seven: AsText = query one({ id: "7" })
print(seven.id)`);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`QUERY_ROW_INVALID 1 id\n${BIG} big\n7\n`);
  });
});
