// Datasource bridges for the examples 050–059 (spec §12), loaded through luma.config.json.
// A tool module exports them under the known name `datasources`: one function per declared
// datasource, `(sql, params, signal) => rows`. Luma passes the statement's SQL untouched and
// its parameters as a positional array in declaration order; the bridge hands both to its
// driver, which binds them (never string-splices them).
//
// A real program wraps its driver's pool here (pg, mysql2, …). This one wraps an in-memory
// SQLite database seeded on first use, so the examples run with no server.
import { Database } from "bun:sqlite";

let inventory: Database | undefined;

const openInventory = (): Database => {
  if (inventory) return inventory;
  inventory = new Database(":memory:");
  inventory.run("CREATE TABLE stock (sku TEXT PRIMARY KEY, count INTEGER NOT NULL, location TEXT)");
  inventory.run("INSERT INTO stock VALUES ('A-100', 12, 'north'), ('B-200', 2, NULL), ('C-300', 0, 'south')");
  return inventory;
};

export const datasources = {
  Inventory: async (sql: string, params: unknown[], signal?: AbortSignal) => {
    signal?.throwIfAborted();
    return openInventory().query(sql).all(...(params as (string | number | null)[]));
  },

  // An old service whose rows break the contract: `count` comes back as text.
  LegacyStock: async (_sql: string, params: unknown[]) => [{ sku: String(params[0]), count: "many" }],
};
