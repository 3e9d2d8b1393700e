/**
 * Spec §12: queries and commands listed in an agent's `tools` are callable by the model
 * through the same pipeline (query = read, command = write). The native tool loop runs them
 * with `ToolInvoker.call({ mode: "native", … })` and describes them with
 * `statementToolDefinition` / `SchemaTable.toolInput`.
 */
import { describe, expect, test } from "bun:test";
import { parse } from "../../src/syntax/parse";
import { createSchemaTable } from "../../src/schema/schema-table";
import { createToolInvoker } from "../../src/runtime/tools/pipeline";
import type { AgentDecl } from "../../src/syntax/ast";
import { resolveDatasourceBridges, statementToolDefinition, statementToolPlans } from "../../src/runtime/datasources";

const SOURCE = `
datasource Shop {}
schema Customer { id: int  name: string }
schema Inserted { id: int }
query find(name: string @desc("Exact name"), limit?: int @default(5)) -> Customer[] {
  source: Shop
  sql: "SELECT id, name FROM customers WHERE name = $1 LIMIT $2"
  description: "Customers with this exact name"
}
command add(name: string) -> Inserted { source: Shop  sql: "INSERT INTO customers(name) VALUES ($1) RETURNING id" }
agent Clerk { tools: [find, add]  tool_policy: "deny_write" }
`;

function setup() {
  const program = parse(SOURCE, "model.luma").program!;
  const schemas = createSchemaTable(program);
  const seen: unknown[][] = [];
  const bridges = resolveDatasourceBridges({
    program,
    registry: { datasource: () => async (_sql: string, params: unknown[]) => (seen.push(params), [{ id: 1, name: String(params[0]) }]) },
    env: {},
    programDir: "/",
  });
  const trace: Record<string, unknown>[] = [];
  const tools = createToolInvoker({
    program,
    schemas,
    registry: { handler: () => undefined },
    config: {},
    env: {},
    warn: () => {},
    trace: (e) => trace.push(e as Record<string, unknown>),
    statements: statementToolPlans({ program, schemas, bridges, warn: () => {} }),
  });
  const agent = program.decls.find((d) => d.kind === "Agent") as AgentDecl;
  return { program, schemas, tools, agent, seen, trace };
}

describe("§12 queries and commands in an agent's tools are model-callable", () => {
  test("a model's call of a query runs through the pipeline (mode native): input defaults, positional params, trace", async () => {
    const { tools, agent, seen, trace } = setup();
    const out = await tools.call({ tool: "find", input: { name: "Ada" }, mode: "native", agent, methodCall: { failures: 0 } });
    expect(out).toEqual([{ id: 1, name: "Ada" }]);
    expect(seen).toEqual([["Ada", 5]]);
    expect(trace).toEqual([expect.objectContaining({ event: "query.call", query: "find", agent: "Clerk", mode: "native", outcome: "ok" })]);
  });

  test("a command is a write: deny_write refuses the model's call before the bridge runs", async () => {
    const { tools, agent, seen } = setup();
    const call = tools.call({ tool: "add", input: { name: "Eve" }, mode: "native", agent, methodCall: { failures: 0 } });
    await expect(call).rejects.toMatchObject({ code: "TOOL_PERMISSION_DENIED" });
    expect(seen).toEqual([]);
  });

  test("the model sees the statement's description and its parameters as JSON Schema", () => {
    const { program, schemas } = setup();
    const def = statementToolDefinition(program, schemas, "find")!;
    expect(def.description).toBe("Customers with this exact name");
    expect(def.sideEffects).toBe("read");
    expect(def.parameters).toMatchObject({
      type: "object",
      properties: { name: { type: "string", description: "Exact name" }, limit: { type: "integer", default: 5 } },
      required: ["name"],
    });
    expect(statementToolDefinition(program, schemas, "add")).toMatchObject({ sideEffects: "write", description: "Writes to the datasource 'Shop'." });
    expect(statementToolDefinition(program, schemas, "Clerk")).toBeUndefined();
  });
});
