/**
 * Issue #6 figures: what a `query` costs on top of its bridge. For each scenario, the
 * median µs per call of the bare driver call and of the same statement through Luma (the
 * tool pipeline, parameter list, row normalisation and validation of every row against the
 * row schema), measured in the same run after a warm-up:
 *   - a module bridge returning 10 constant rows (pure overhead);
 *   - the built-in SQLite bridge, in memory, 1 row and 100 rows.
 */
import { Database } from "bun:sqlite";
import { parse } from "../src/syntax/parse";
import { createSchemaTable } from "../src/schema/schema-table";
import { createToolInvoker } from "../src/runtime/tools/pipeline";
import { resolveDatasourceBridges, statementToolPlans } from "../src/runtime/datasources";
import { fmt, median } from "./measure";

const SOURCE = `
datasource Mod {}
datasource Lite { url: "sqlite::memory:" }
schema Row { id: int  name: string  tier?: enum["basic", "gold"] @default("basic") }
query mod_rows(limit: int) -> Row[] { source: Mod  sql: "SELECT" }
query one(id: int) -> Row { source: Lite  sql: "SELECT id, name, tier FROM t WHERE id = $1" }
query many(limit: int) -> Row[] { source: Lite  sql: "SELECT id, name, tier FROM t ORDER BY id LIMIT $1" }
`;

const N = 20_000;

async function perCall(fn: () => unknown, n = N): Promise<number> {
  for (let i = 0; i < 500; i++) await fn();
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    rounds.push(((performance.now() - t0) * 1000) / n);
  }
  return median(rounds);
}

export async function benchDatasources(): Promise<void> {
  const program = parse(SOURCE, "bench.luma").program!;
  const schemas = createSchemaTable(program);
  const rows10 = Array.from({ length: 10 }, (_, i) => ({ id: i, name: `n${i}`, tier: i % 2 ? "gold" : null }));
  const modBridge = async (_sql: string, _params: unknown[]) => rows10;
  const bridges = resolveDatasourceBridges({
    program,
    registry: { datasource: (name) => (name === "Mod" ? modBridge : undefined) },
    env: {},
    programDir: "/",
  });
  const tools = createToolInvoker({
    program,
    schemas,
    registry: { handler: () => undefined },
    config: {},
    env: {},
    warn: () => {},
    statements: statementToolPlans({ program, schemas, bridges, warn: () => {} }),
  });
  // Seed the built-in bridge's in-memory database through Luma's own connection.
  const lite = bridges.get("Lite")!;
  const signal = new AbortController().signal;
  await lite.run("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tier TEXT)", [], signal, "command");
  for (let i = 0; i < 100; i++) await lite.run("INSERT INTO t VALUES ($1, $2, $3)", [i, `n${i}`, i % 2 ? "gold" : null], signal, "command");
  const bare = new Database(":memory:");
  bare.run("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tier TEXT)");
  for (let i = 0; i < 100; i++) bare.query("INSERT INTO t VALUES (?, ?, ?)").run(i, `n${i}`, i % 2 ? "gold" : null);

  const rowsOut: [string, number, number][] = [
    ["module bridge, 10 rows", await perCall(() => modBridge("SELECT", [10])), await perCall(() => tools.call({ tool: "mod_rows", input: { limit: 10 }, mode: "direct" }))],
    ["sqlite, 1 row", await perCall(() => bare.query("SELECT id, name, tier FROM t WHERE id = ?").all(7)), await perCall(() => tools.call({ tool: "one", input: { id: 7 }, mode: "direct" }))],
    ["sqlite, 100 rows", await perCall(() => bare.query("SELECT id, name, tier FROM t ORDER BY id LIMIT ?").all(100), 2_000), await perCall(() => tools.call({ tool: "many", input: { limit: 100 }, mode: "direct" }), 2_000)],
  ];
  console.log("datasources: µs per statement (bare driver call → through Luma, rows validated)");
  for (const [name, bareUs, lumaUs] of rowsOut) console.log(`  ${name.padEnd(24)} ${fmt(bareUs, 2).padStart(8)} → ${fmt(lumaUs, 2).padStart(8)}  (+${fmt(lumaUs - bareUs, 2)})`);
  await bridges.close();
  bare.close();
  console.log("");
}
