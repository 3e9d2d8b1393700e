import { describe, expect, test } from "bun:test";
import { eventsOf, runProgram } from "./run-luma-program";
import { fakeBridgeModule, recordedCalls } from "./fake-bridge-module";

let counter = 0;
/** Runs `body` against the fake Warehouse bridge; every run gets its own call record. */
async function withBridge(body: string, opts: { env?: Record<string, string>; interactive?: boolean } = {}) {
  const key = `__luma_ds_calls_${process.pid}_${counter++}`;
  const source = `
datasource Warehouse {}
schema Customer {
  id: int
  name: string
  tier?: enum["basic", "gold"] @default("basic")
  score?: int @range(0, 10) @severity("soft")
  at?: string
}
schema Echo { sql: string  params: string }
${body}`;
  const run = await runProgram(source, { files: { "bridge.ts": fakeBridgeModule(key) }, modules: ["bridge.ts"], ...opts });
  return { ...run, calls: recordedCalls(key) };
}

describe("§12 parameters", () => {
  test("parameters are passed to the bridge as a positional array in declaration order, never spliced into the SQL", async () => {
    const r = await withBridge(`
query echo(b: string, a: int, c?: bool @default(true), d?: string) -> Echo {
  source: Warehouse
  sql: "ECHO"
}
row = query echo({ a: 1, b: "x'; DROP TABLE customers; --" })
print(row.params)`);
    expect(r.error).toBeUndefined();
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0].sql).toBe("ECHO");
    expect(r.calls[0].params).toEqual(["x'; DROP TABLE customers; --", 1, true, null]);
    expect(r.out).toEqual([JSON.stringify(["x'; DROP TABLE customers; --", 1, true, null])]);
  });

  test("an input that breaks the parameter types is TOOL_INPUT_INVALID and the bridge is not called", async () => {
    const r = await withBridge(`
query echo(limit: int) -> Echo[] { source: Warehouse  sql: "ECHO" }
bad: any = { limit: "ten" }
query echo(bad)`);
    expect(r.error?.code).toBe("TOOL_INPUT_INVALID");
    expect(r.error?.message).toContain("echo.input.limit");
    expect(r.calls).toHaveLength(0);
  });
});

describe("§12 rows", () => {
  test("every returned row is validated against the row schema, with field defaults applied", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "TWO" }
for c in query all({}) { print(c.id, c.name, c.tier) }`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["1 Ada basic", "2 Bob gold"]);
  });

  test("a bad row fails the call with QUERY_ROW_INVALID naming the row index (0-based), the field and the rule", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "BAD_ENUM" }
query all({})`);
    expect(r.error?.code).toBe("QUERY_ROW_INVALID");
    expect(r.error?.message).toBe(
      `Query 'all' (datasource 'Warehouse') returned an invalid row 1: all.rows[1].tier must be one of "basic", "gold" (enum).`,
    );
    expect(r.error?.details).toMatchObject({ query: "all", datasource: "Warehouse", row: 1, field: "tier", rule: "enum" });
  });

  test("rows with wrong types are QUERY_ROW_INVALID (type rule)", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "BAD_TYPE" }
query all({})`);
    expect(r.error?.code).toBe("QUERY_ROW_INVALID");
    expect(r.error?.message).toContain("all.rows[0].id must be an integer");
    expect(r.error?.details).toMatchObject({ row: 0, field: "id", rule: "type" });
  });

  test("a row that is not an object is QUERY_ROW_INVALID", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "NOT_OBJECT" }
query all({})`);
    expect(r.error?.code).toBe("QUERY_ROW_INVALID");
    expect(r.error?.message).toBe("Query 'all' (datasource 'Warehouse'): row 0 must be an object, got a number.");
  });

  test("a bridge that returns no array is a clear error naming the query and the datasource", async () => {
    for (const sql of ["NOT_ARRAY", "OBJECT"]) {
      const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "${sql}" }
query all({})`);
      expect(r.error?.code).toBe("TOOL_OUTPUT_INVALID");
      expect(r.error?.message).toMatch(/^Query 'all' \(datasource 'Warehouse'\): the bridge must return an array of rows, got (a string|an object)\.$/);
    }
  });

  test("SQL NULL in an optional column means absent (its default applies); in a required column it is a type error", async () => {
    const ok = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "NULLS" }
print(query all({})[0].tier)`);
    expect(ok.out).toEqual(["basic"]);
    const bad = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "NULL_NAME" }
query all({})`);
    expect(bad.error?.code).toBe("QUERY_ROW_INVALID");
    expect(bad.error?.details).toMatchObject({ row: 0, field: "name" });
  });

  test("driver values become Luma values: bigint → number, Date → ISO-8601 string", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "DRIVER_TYPES" }
c = query all({})[0]
print(c.id + 1, c.at)`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["6 1970-01-01T00:00:00.000Z"]);
  });

  test("soft rules annotate: the row is kept, a warning names the path and rule, the trace gets validation.soft", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "SOFT" }
print(query all({})[0].score)`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["20"]);
    expect(r.err).toEqual(["warning: all.rows[0].score must be <= 10 (@range)."]);
    expect(eventsOf(r, "validation.soft")).toEqual([
      expect.objectContaining({ query: "all", datasource: "Warehouse", path: "all.rows[0].score", rule: "@range" }),
    ]);
  });
});

describe("§12 results", () => {
  test("a query declared -> T returns the first row, and null when there is no row", async () => {
    const r = await withBridge(`
query first() -> Customer { source: Warehouse  sql: "TWO" }
query missing() -> Customer { source: Warehouse  sql: "NONE" }
print(query first({}).name)
print(query missing({}) == null)`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["Ada", "true"]);
  });

  test("a command returns its declared schema from the first returned row", async () => {
    const r = await withBridge(`
command add() -> Customer { source: Warehouse  sql: "TWO" }
print(command add({}))`);
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual([JSON.stringify({ id: 1, name: "Ada", tier: "basic" })]);
  });

  test("a command whose result schema needs a field and gets no row is QUERY_ROW_INVALID; an all-default schema is satisfied", async () => {
    const bad = await withBridge(`
schema Inserted { id: int }
command add() -> Inserted { source: Warehouse  sql: "NONE" }
command add({})`);
    expect(bad.error?.code).toBe("QUERY_ROW_INVALID");
    expect(bad.error?.message).toBe("Command 'add' (datasource 'Warehouse') returned no row; its result Inserted needs one.");
    const ok = await withBridge(`
schema Done { ok?: bool @default(true) }
command touch() -> Done { source: Warehouse  sql: "NONE" }
print(command touch({}).ok)`);
    expect(ok.out).toEqual(["true"]);
  });
});

describe("§12 bridge failures (bad input)", () => {
  test("a bridge that throws is TOOL_HANDLER_ERROR naming the query and the datasource, and a catch sees it", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "THROW" }
try { query all({}) } catch e { print(e.code, e.message) }`);
    expect(r.out).toEqual([`TOOL_HANDLER_ERROR Query 'all' (datasource 'Warehouse') failed: relation "customers" does not exist`]);
  });

  test("a typed error thrown by the bridge keeps its code, retryable and details", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "TYPED" }
try { query all({}) } catch e { print(e.code, e.retryable, e.details.wait_ms) }`);
    expect(r.out).toEqual(["DB_BUSY true 50"]);
  });

  test("credentials in URLs are never printed: user:password is redacted from bridge messages", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "THROW_URL" }
query all({})`);
    expect(r.error?.message).toBe("Query 'all' (datasource 'Warehouse') failed: could not connect to postgres://***@db.internal:5432/shop");
    expect(JSON.stringify(r.trace)).not.toContain("hunter2");
  });

  test("the AbortSignal fires on timeout (the agent's tool_timeout) and the call fails with TOOL_TIMEOUT", async () => {
    const r = await withBridge(`
query slow() -> Customer[] { source: Warehouse  sql: "HANG" }
agent Reporter {
  tools: [slow]
  tool_timeout: 30
  fn run() { query slow({}) }
}
Reporter.run()`);
    expect(r.error?.code).toBe("TOOL_TIMEOUT");
    expect(r.error?.retryable).toBe(true);
    expect(r.error?.message).toBe("Query 'slow' (datasource 'Warehouse') timed out after 30 ms.");
    expect(r.calls[0].hadSignal).toBe(true);
    expect(r.calls[0].aborted).toBe(true);
  });

  test("a command's AbortSignal fires on the agent's timeout too", async () => {
    const r = await withBridge(`
command slow() -> Customer { source: Warehouse  sql: "HANG" }
agent Writer {
  tool_timeout: 20
  fn run() { command slow({}) }
}
Writer.run()`);
    expect(r.error?.message).toBe("Command 'slow' (datasource 'Warehouse') timed out after 20 ms.");
    expect(r.calls[0].aborted).toBe(true);
  });
});

describe("§12 policies: query = read, command = write", () => {
  const program = (policy: string) => `
schema Inserted { id: int }
query all() -> Customer[] { source: Warehouse  sql: "TWO" }
command add() -> Customer { source: Warehouse  sql: "TWO" }
agent Clerk {
  tools: [all, add]
  tool_policy: "${policy}"
  fn read() { print(len(query all({}))) }
  fn write() { print(command add({}).name) }
}
Clerk.read()
Clerk.write()`;

  test("deny_write refuses a command inside an agent method and still allows a query", async () => {
    const r = await withBridge(program("deny_write"));
    expect(r.out).toEqual(["2"]);
    expect(r.error?.code).toBe("TOOL_PERMISSION_DENIED");
    expect(r.error?.message).toBe("Tool 'add' writes, and agent 'Clerk' has tool_policy deny_write.");
    expect(r.calls.map((c) => c.sql)).toEqual(["TWO"]);
  });

  test("approval refuses a command when no terminal can approve it, and LUMA_APPROVED_TOOLS lets it run", async () => {
    const refused = await withBridge(program("approval"));
    expect(refused.error?.code).toBe("TOOL_PERMISSION_DENIED");
    expect(refused.out).toEqual(["2"]);
    const approved = await withBridge(program("approval"), { env: { LUMA_APPROVED_TOOLS: "add" } });
    expect(approved.error).toBeUndefined();
    expect(approved.out).toEqual(["2", "Ada"]);
  });
});

describe("§14 trace", () => {
  test("each query and command produces one query.call / command.call event, without data", async () => {
    const r = await withBridge(`
query all() -> Customer[] { source: Warehouse  sql: "TWO" }
query broken() -> Customer[] { source: Warehouse  sql: "THROW" }
command add() -> Customer { source: Warehouse  sql: "TWO" }
query all({})
command add({})
try { query broken({}) } catch e {}`);
    expect(eventsOf(r, "tool.call")).toEqual([]);
    expect(eventsOf(r, "query.call")).toEqual([
      expect.objectContaining({ query: "all", datasource: "Warehouse", mode: "direct", outcome: "ok", code: null, rows: 2 }),
      expect.objectContaining({ query: "broken", outcome: "error", code: "TOOL_HANDLER_ERROR" }),
    ]);
    expect(eventsOf(r, "command.call")).toEqual([expect.objectContaining({ command: "add", datasource: "Warehouse", outcome: "ok", rows: 1 })]);
    expect(JSON.stringify(r.trace)).not.toContain("Ada");
  });
});
