/** The example programs of the spec and of the original tool-system docs, verbatim. */
import { describe, expect, test } from "bun:test";
import type { Decl } from "../../src/syntax/ast";
import { parseOk, shape } from "./parse-helpers";

const SCHEMAS = `schema CalcResult {
  result: float
}

schema Answer {
  summary: string @desc("One sentence") @length(1, 280)
  score: int @range(0, 10) @severity("soft")
  tags?: string[] @items(0, 5)
  lang?: enum["en", "tr"] @default("en")
}`;

const TAGGED_UNION = `schema Invoice { invoice_number: string }
schema Receipt { reference: string }
schema Document = Invoice | Receipt tagged by kind

tool classify(text: string) -> Document {
  side_effects: "none"
}`;

const TOOL_CALCULATE = `tool calculate(
  a: float @range(0, 1000000),
  b: float @range(0, 1000000),
  operation: enum["add", "multiply"] @desc("Operation to perform"),
  limit?: int @default(10)
) -> CalcResult {
  side_effects: "none"
  cache: true
}`;

const MODEL = `model GPT54Mini {
  provider: "openai"          // "openai" | "openai-compatible" | "azure" | "anthropic" | "gemini"
  name: "gpt-5.4-mini"
  temperature: 0              // optional
  max_tokens: 2048            // optional
  base_url: "http://127.0.0.1:11434/v1"   // optional; required for "openai-compatible"
  api_key_env: "OPENAI_API_KEY"           // optional; default per provider
}`;

const MULTI_TOOL_WORKER = `agent MultiToolWorker {
  model: GPT54Mini
  system: "You are a careful assistant."   // optional system prompt
  tools: [text_stats, calculate]
  tool_rate_limit: 2
  tool_concurrency: 2
  tool_failure_limit: 3
  tool_policy: "approval"
  tool_scopes: ["db:write"]
  tool_contexts: ["db"]
  tool_timeout: 30000
  tool_timeout_max: 60000
  retries: 2

  fn run() -> FinalResult {
    ask "Call both tools exactly once… then return only valid JSON." -> FinalResult
  }
}`;

const FLOW = `agent Flow {
  tools: [text_stats, calculate]

  fn run(text: string) -> Answer {
    stats = tool text_stats({ text: text })

    if stats.words > 3 {
      bonus = tool calculate({ a: stats.words, b: 2, operation: "multiply" })
    }

    ask "Stats: {stats}, bonus: {bonus}" -> Answer
  }
}

result = tool calculate({ a: 2, b: 3, operation: "add" })
print(result.result)`;

const SETTLE = `agent Settler {
  model: GPT54Mini
  tools: [calculate]
  fn settle(text: string) -> Answer {
    ask "Hesabı kapat: {text}" -> Answer using tool calculate
  }
}`;

const DB_WRITE = `schema ToolError { code: string  message: string  retryable: bool  details?: any }

tool db_write(request_id: string, table: string, value: string) -> DbWriteResult {
  side_effects: "write"
  error: ToolError
  retries: 3
  retry_backoff: "exponential"
  idempotent: true
  idempotency_key: request_id
}`;

const NEEDS = `schema Database {
  user: string
  port: int
}
tool db_write(table: string) -> DbResult {
  needs db: Database
  side_effects: "write"
}
agent Writer {
  tools: [db_write]
  tool_scopes: ["db:write"]
  tool_policy: "approval"
}`;

const DATASOURCE = `datasource Warehouse {}

schema Customer {
  id: int
  name: string
  tier?: enum["basic", "gold"] @default("basic")
}

query top_customers(limit: int @default(10)) -> Customer[] {
  source: Warehouse
  sql: "SELECT id, name, tier FROM customers ORDER BY revenue DESC LIMIT $1"
}

schema Inserted { id: int }

command add_customer(name: string) -> Inserted {
  source: Warehouse
  sql: "INSERT INTO customers(name) VALUES ($1) RETURNING id"
}

rows = query top_customers({ limit: 3 })
added = command add_customer({ name: "Ada" })`;

const summary = (decls: Decl[]) => decls.map((d) => `${d.kind} ${d.name}`);

describe("Spec examples parse", () => {
  test("§3 schemas", () => {
    const program = parseOk(SCHEMAS);
    expect(summary(program.decls)).toEqual(["Schema CalcResult", "Schema Answer"]);
    const answer = program.decls[1];
    expect(answer.kind === "Schema" && answer.fields.map((f) => f.annotations.map((a) => a.name))).toEqual([
      ["desc", "length"],
      ["range", "severity"],
      ["items"],
      ["default"],
    ]);
  });

  test("§3 tagged union Document", () => {
    const program = parseOk(TAGGED_UNION);
    expect(summary(program.decls)).toEqual(["Schema Invoice", "Schema Receipt", "Union Document", "Tool classify"]);
  });

  test("§4 tool calculate", () => {
    const [tool] = parseOk(TOOL_CALCULATE).decls;
    if (tool.kind !== "Tool") throw new Error(tool.kind);
    expect(tool.params.map((p) => `${p.name}${p.optional ? "?" : ""}`)).toEqual(["a", "b", "operation", "limit?"]);
    expect(shape(tool.options)).toEqual([
      { kind: "Entry", key: "side_effects", value: { kind: "Lit", value: "none" } },
      { kind: "Entry", key: "cache", value: { kind: "Lit", value: true } },
    ]);
  });

  test("§5 model with comments after values", () => {
    const [model] = parseOk(MODEL).decls;
    expect(model.kind === "Model" && model.entries.map((e) => e.key)).toEqual([
      "provider",
      "name",
      "temperature",
      "max_tokens",
      "base_url",
      "api_key_env",
    ]);
  });

  test("§6 agent MultiToolWorker", () => {
    const [agent] = parseOk(MULTI_TOOL_WORKER).decls;
    if (agent.kind !== "Agent") throw new Error(agent.kind);
    expect(agent.entries.map((e) => e.key)).toEqual([
      "model",
      "system",
      "tools",
      "tool_rate_limit",
      "tool_concurrency",
      "tool_failure_limit",
      "tool_policy",
      "tool_scopes",
      "tool_contexts",
      "tool_timeout",
      "tool_timeout_max",
      "retries",
    ]);
    expect(shape(agent.entries[0].value)).toEqual({ kind: "Path", parts: ["GPT54Mini"] });
    expect(agent.methods.map((m) => m.name)).toEqual(["run"]);
  });

  test("§7 agent Flow and top-level code", () => {
    const program = parseOk(FLOW);
    expect(summary(program.decls)).toEqual(["Agent Flow"]);
    const flow = program.decls[0];
    if (flow.kind !== "Agent") throw new Error(flow.kind);
    expect(flow.methods[0].body.map((s) => s.kind)).toEqual(["Assign", "If", "ExprStmt"]);
    const ask = flow.methods[0].body[2];
    expect(ask.kind === "ExprStmt" && shape(ask.expr)).toEqual({
      kind: "Ask",
      prompt: { kind: "Str", parts: ["Stats: ", { kind: "Name", name: "stats" }, ", bonus: ", { kind: "Name", name: "bonus" }] },
      target: { kind: "NamedType", name: "Answer" },
    });
    expect(program.body.map((s) => s.kind)).toEqual(["Assign", "ExprStmt"]);
  });

  test("§7 ask … using tool (original docs)", () => {
    const [agent] = parseOk(SETTLE).decls;
    const stmt = agent.kind === "Agent" ? agent.methods[0].body[0] : undefined;
    expect(stmt?.kind === "ExprStmt" && stmt.expr.kind === "Ask" && stmt.expr.usingTool?.name).toBe("calculate");
  });

  test("§9 ToolError on one line and db_write", () => {
    const program = parseOk(DB_WRITE);
    expect(summary(program.decls)).toEqual(["Schema ToolError", "Tool db_write"]);
    const tool = program.decls[1];
    expect(tool.kind === "Tool" && shape(tool.options.at(-1))).toEqual({
      kind: "Entry",
      key: "idempotency_key",
      value: { kind: "Path", parts: ["request_id"] },
    });
  });

  test("§8 db_write with needs (original docs)", () => {
    const program = parseOk(NEEDS);
    expect(summary(program.decls)).toEqual(["Schema Database", "Tool db_write", "Agent Writer"]);
    const tool = program.decls[1];
    expect(tool.kind === "Tool" && tool.needs.map((n) => n.name)).toEqual(["db"]);
  });

  test("§12 datasource / query / command", () => {
    const program = parseOk(DATASOURCE);
    expect(summary(program.decls)).toEqual([
      "Datasource Warehouse",
      "Schema Customer",
      "Query top_customers",
      "Schema Inserted",
      "Command add_customer",
    ]);
    expect(program.body.map((s) => (s.kind === "Assign" ? `${s.name} = ${s.value.kind}` : s.kind))).toEqual([
      "rows = DbCall",
      "added = DbCall",
    ]);
  });
});
