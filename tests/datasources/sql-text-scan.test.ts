import { describe, expect, test } from "bun:test";
import { scanSql, type SqlDialect } from "../../src/runtime/datasources/sql-text-scan";

const CASES: [string, SqlDialect, number, [number, string][]][] = [
  ["SELECT 1; SELECT 2", "sqlite", 2, []],
  ["SELECT 1; -- only a comment after\n", "postgres", 1, []],
  ["SELECT ';', \"a;b\", `c;d`, [e;f] /* ; */", "sqlite", 1, []],
  ["SELECT '$3', \"$4\" /* $5 */ -- $6\n, $$ $7; $$, $q$ ; $2 $q$, $1::int", "postgres", 1, [[1, "$1"]]],
  ["/* a /* nested ; */ still */ SELECT $1", "postgres", 1, [[1, "$1"]]],
  ["SELECT E'\\'; $9', $1", "postgres", 1, [[1, "$1"]]],
  ["SELECT doc ? 'k', doc ?| array['a'] FROM t WHERE id = $1", "postgres", 1, [[1, "$1"]]],
  ["SELECT ?, ?5, ?, :a, :a, @b", "sqlite", 1, [[1, "?"], [5, "?5"], [6, "?"], [7, ":a"], [8, "@b"]]],
  ["CREATE TRIGGER t AFTER INSERT ON x BEGIN UPDATE y SET a = CASE WHEN 1 THEN 2 END; DELETE FROM z; END; SELECT 1", "sqlite", 2, []],
  ["CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END", "postgres", 1, []],
  // Hostile or broken text: an unterminated quote, comment or dollar quote swallows the rest.
  ["SELECT 'open; SELECT $2", "sqlite", 1, []],
  ["SELECT $1 /* open; SELECT $2", "postgres", 1, [[1, "$1"]]],
  ["SELECT $tag$ open; $2", "postgres", 1, []],
  [";;;", "sqlite", 0, []],
];

describe("§12 statement text scan (start-up checks of the built-in bridges)", () => {
  test.each(CASES)("%p (%s): %p statements, placeholders %p", (sql, dialect, statements, placeholders) => {
    const r = scanSql(sql, dialect);
    expect(r.statements).toBe(statements);
    expect([...r.placeholders]).toEqual(placeholders);
  });

  test("a megabyte of SQL is scanned whole (no recursion, no backtracking regex)", () => {
    const big = `SELECT ${"'x;y', ".repeat(150_000)}$1; SELECT 2`;
    const r = scanSql(big, "postgres");
    expect(r.statements).toBe(2);
    expect([...r.placeholders.keys()]).toEqual([1]);
  });
});
