/**
 * The built-in SQLite bridge (spec §12, extension): `url: "sqlite:PATH"` runs statements
 * with `bun:sqlite`, no tool module and no server. The file is opened on the first
 * statement, not at startup, and prepared statements are cached by SQL text.
 *
 * Parameters are bound, never spliced. SQLite numbers `$N` placeholders by first
 * appearance, so `… $2 … $1` bound positionally would swap them: SQL written with `$N` is
 * bound by name (`{ $1, $2, … }`); `?` and `?N` placeholders are bound by position.
 * SQLite has no booleans or JSON: `true`/`false` become 1/0, objects and arrays JSON text.
 */
import { Database, type SQLQueryBindings } from "bun:sqlite";
import type { Bridge, StatementKind } from "./bridge";

const DOLLAR_PLACEHOLDER = /\$\d/;

const toSqliteValue = (v: unknown): SQLQueryBindings => {
  if (v === null || v === undefined) return null;
  if (typeof v === "object") return JSON.stringify(v);
  return v as SQLQueryBindings;
};

export function sqliteBridge(path: string, readonly: boolean): Bridge {
  let db: Database | undefined;
  const open = (): Database => {
    db ??= readonly ? new Database(path, { readonly: true }) : new Database(path, { create: true, readwrite: true });
    return db;
  };
  return {
    origin: "sqlite",
    secrets: [],
    run(sql: string, params: unknown[], signal: AbortSignal, kind: StatementKind): unknown {
      // A synchronous driver cannot be interrupted; it can still refuse to start late.
      signal.throwIfAborted();
      const stmt = open().query(sql);
      const values = params.map(toSqliteValue);
      const run = DOLLAR_PLACEHOLDER.test(sql)
        ? (f: (...a: SQLQueryBindings[]) => unknown) => f(Object.fromEntries(values.map((v, i) => [`$${i + 1}`, v])) as SQLQueryBindings)
        : (f: (...a: SQLQueryBindings[]) => unknown) => f(...values);
      if (stmt.columnNames.length > 0) return run((...a) => stmt.all(...a));
      const changes = (run((...a) => stmt.run(...a)) as { changes: number }).changes;
      return kind === "command" ? [{ rows_affected: changes }] : [];
    },
    async close() {
      db?.close();
      db = undefined;
    },
  };
}
