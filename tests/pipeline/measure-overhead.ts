/**
 * Per-call overhead of the tool pipeline over a bare `await handler(input)` — a measurement
 * script, not a test: `bun tests/pipeline/measure-overhead.ts`.
 *
 * Scenarios: a plain tool at top level, and a tool with every step in force (credential,
 * scope, approval via LUMA_APPROVED_TOOLS, needs, idempotency on the memory store with a
 * fresh key per call, breaker, trace), each with the real schema table and with a schema
 * table that accepts everything (to separate the pipeline's own cost from validation).
 */
import { parse } from "../../src/syntax/parse";
import { createSchemaTable } from "../../src/schema/schema-table";
import type { SchemaTable } from "../../src/schema/schema-table-types";
import type { AgentDecl } from "../../src/syntax/ast";
import { createToolInvoker } from "../../src/runtime/tools/pipeline";

const SOURCE = `
schema R { result: float }
schema Database { user: string  port: int }
tool plain(a: float, b: float) -> R {}
tool full(request_id: string, a: float, b: float) -> R {
  side_effects: "write"
  scope: "db:write"
  credential: "DB_PASSWORD"
  idempotent: true
  idempotency_key: request_id
  needs db: Database
}
agent A { tools: [plain, full] tool_scopes: ["db:write"] tool_contexts: ["db"] tool_policy: "approval" tool_failure_limit: 5 }
`;

const program = parse(SOURCE, "bench.luma").program!;
const agent = program.decls.find((d) => d.kind === "Agent") as AgentDecl;
const realSchemas = createSchemaTable(program);
const acceptAll: SchemaTable = {
  ...realSchemas,
  validate: (_t, value) => ({ ok: true, value, hard: [], soft: [] }),
};

const asyncHandler = async (i: any) => ({ result: i.a + i.b });
const syncHandler = (i: any) => ({ result: i.a + i.b });

const invokerFor = (schemas: SchemaTable, handler: (i: any) => unknown) => {
  let traced = 0;
  return createToolInvoker({
    program,
    schemas,
    registry: { handler: () => handler },
    config: { tool_contexts: { db: { user: { env: "DB_USER" }, port: { env: "DB_PORT", parse: "integer" } } } },
    env: { DB_PASSWORD: "pw", DB_USER: "u", DB_PORT: "5432", LUMA_APPROVED_TOOLS: "full" },
    trace: () => void traced++,
    warn: () => {},
  });
};

const N = 300_000;
const time = async (run: (i: number) => Promise<unknown>): Promise<number> => {
  for (let i = 0; i < 50_000; i++) await run(i); // warm-up: JIT, plans, compiled validators
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const t = Bun.nanoseconds();
    for (let i = 0; i < N; i++) await run(i);
    best = Math.min(best, (Bun.nanoseconds() - t) / N);
  }
  return best;
};

const input = { a: 1, b: 2 };
for (const [hName, handler] of [["async", asyncHandler], ["sync", syncHandler]] as const) {
  const bare = await time(() => Promise.resolve(handler(input)).then((x) => x));
  const bareAwait = await time(async () => await handler(input));
  console.log(`\n${hName} handler: bare await handler(input) = ${bareAwait.toFixed(0)} ns (${bare.toFixed(0)} ns via then)`);
  for (const [sName, schemas] of [["accept-all schema table", acceptAll], ["real schema table", realSchemas]] as const) {
    const inv = invokerFor(schemas, handler);
    const plain = await time(() => inv.call({ tool: "plain", input, mode: "direct" }));
    let k = 0;
    const full = await time(() =>
      inv.call({ tool: "full", input: { request_id: `r${k++}`, a: 1, b: 2 }, mode: "direct", agent, methodCall: { failures: 0 } }),
    );
    console.log(
      `  ${sName.padEnd(24)} plain top-level: ${plain.toFixed(0)} ns (+${(plain - bareAwait).toFixed(0)})   ` +
        `all steps: ${full.toFixed(0)} ns (+${(full - bareAwait).toFixed(0)})`,
    );
  }
}
