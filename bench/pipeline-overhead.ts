/**
 * Issue #3 figure: per-call overhead of the tool pipeline over a bare `await handler(input)`,
 * measured in the same run (the bare loop builds the same per-call input object).
 *
 * The headline scenario goes through all twelve steps with the cache off and the default
 * memory idempotency store: a write tool with a credential, a scope, `needs` built from
 * env, approval (granted by LUMA_APPROVED_TOOLS), idempotency with a fresh key per call,
 * output validation with the real schema table, the breaker of an agent method call and a
 * trace sink (a no-op function, so JSON serialisation is not counted). The other rows take
 * steps away, and one swaps the real schema table for one that accepts everything, to
 * separate the pipeline's own cost from validation.
 *
 * The handler is `async` and never awaits, so the promise it returns is already fulfilled:
 * step 10 reads its value at once (Bun.peek) and the call needs no deadline race. The last
 * two rows measure the other case — a handler that awaits once, whose promise is still
 * pending when it returns — against its own bare loop: that call races the shared deadline.
 *
 * The idempotency keys are fresh per call and their records live 1 ms, so the memory store
 * stays at a steady size (about the calls of one millisecond) instead of growing by every
 * call of the run, as it would with the default TTL of 300 s.
 *
 * Each scenario: the best of ROUNDS interleaved rounds of N calls, after a warm-up round.
 */
import { parse } from "../src/syntax/parse";
import { createSchemaTable } from "../src/schema/schema-table";
import type { SchemaTable } from "../src/schema/schema-table-types";
import type { AgentDecl } from "../src/syntax/ast";
import { createToolInvoker } from "../src/runtime/tools/pipeline";

const SOURCE = `
schema R { result: float }
schema Database { user: string  port: int }
tool plain(request_id: string, a: float, b: float) -> R {}
tool policies(request_id: string, a: float, b: float) -> R {
  side_effects: "write"
  scope: "db:write"
  credential: "DB_PASSWORD"
  needs db: Database
}
tool full(request_id: string, a: float, b: float) -> R {
  side_effects: "write"
  scope: "db:write"
  credential: "DB_PASSWORD"
  needs db: Database
  idempotent: true
  idempotency_key: request_id
  idempotency_ttl_ms: 1
}
agent A { tools: [plain, policies, full] tool_scopes: ["db:write"] tool_contexts: ["db"] tool_policy: "approval" tool_failure_limit: 5 }
`;

const N = 50_000;
const ROUNDS = 6;

export async function benchPipelineOverhead(): Promise<void> {
  const program = parse(SOURCE, "bench.luma").program!;
  const agent = program.decls.find((d) => d.kind === "Agent") as AgentDecl;
  const realSchemas = createSchemaTable(program);
  const NONE: never[] = [];
  const acceptAll: SchemaTable = { ...realSchemas, validate: (_t, value) => ({ ok: true, value, hard: NONE, soft: NONE }) };
  const handler = async (i: { a: number; b: number }) => ({ result: i.a + i.b });
  const awaiting = async (i: { a: number; b: number }) => {
    await null;
    return { result: i.a + i.b };
  };

  const invokerFor = (schemas: SchemaTable, traced: boolean, h: typeof handler = handler) =>
    createToolInvoker({
      program,
      schemas,
      registry: { handler: () => h },
      config: { tool_contexts: { db: { user: { env: "DB_USER" }, port: { env: "DB_PORT", parse: "integer" } } } },
      env: { DB_PASSWORD: "pw", DB_USER: "u", DB_PORT: "5432", LUMA_APPROVED_TOOLS: "policies,full" },
      trace: traced ? () => {} : undefined,
      warn: () => {},
    });

  let k = 0;
  const input = () => ({ request_id: `r${k++}`, a: 1, b: 2 });
  const scenarios: [string, () => Promise<unknown>][] = [["bare await handler(input)", () => handler(input())]];
  const untraced = invokerFor(acceptAll, false);
  scenarios.push(["plain tool, top level, no trace (accept-all)", () => untraced.call({ tool: "plain", input: input(), mode: "direct" })]);
  for (const [label, schemas] of [["real schemas", realSchemas], ["accept-all", acceptAll]] as const) {
    const inv = invokerFor(schemas, true);
    for (const [tool, what] of [["full", "all twelve steps"], ["policies", "steps 1-7, 10-12 (no idempotency)"], ["plain", "plain tool from an agent"]]) {
      scenarios.push([`${what} (${label})`, () => inv.call({ tool, input: input(), mode: "direct", agent, methodCall: { failures: 0 } })]);
    }
  }

  // A handler whose promise is pending when it returns: the deadline race (against its own bare loop).
  const awaitingInvoker = invokerFor(realSchemas, true, awaiting);
  scenarios.push(["bare await handler(input), handler awaits once", () => awaiting(input())]);
  scenarios.push([
    "all twelve steps, handler awaits once (real schemas)",
    () => awaitingInvoker.call({ tool: "full", input: input(), mode: "direct", agent, methodCall: { failures: 0 } }),
  ]);

  const run = async (f: () => Promise<unknown>): Promise<number> => {
    const t = Bun.nanoseconds();
    for (let i = 0; i < N; i++) await f();
    return (Bun.nanoseconds() - t) / N;
  };
  // Rounds interleave the scenarios, so a burst of load on the machine hits them all alike.
  const best = scenarios.map(() => Infinity);
  for (let round = 0; round <= ROUNDS; round++) {
    for (let s = 0; s < scenarios.length; s++) {
      const ns = await run(scenarios[s][1]);
      if (round > 0) best[s] = Math.min(best[s], ns); // round 0 warms up
    }
  }
  console.log("tool pipeline: per-call cost (best of %d rounds × %d calls)", ROUNDS, N);
  let bare = 0;
  for (let s = 0; s < scenarios.length; s++) {
    const [label] = scenarios[s];
    if (label.startsWith("bare")) {
      bare = best[s];
      console.log(`  ${label.padEnd(52)} ${best[s].toFixed(0).padStart(5)} ns`);
    } else console.log(`  ${label.padEnd(52)} ${best[s].toFixed(0).padStart(5)} ns  overhead +${(best[s] - bare).toFixed(0)} ns`);
  }
  console.log("");
}

if (import.meta.main) await benchPipelineOverhead();
