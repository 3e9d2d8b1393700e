/**
 * Issue #5 figure: the runtime cost of one native tool round trip —
 *   (an `ask` with one tool call and a final answer) − (an `ask` with no tools)
 * against the loopback fake provider, in one run and one process. The difference holds
 * Luma's extra loopback HTTP request (and the fake server's handling of it), the tool call
 * through the whole pipeline (policy, input validation, run, output validation), the
 * transcript, and the strict-schema final request. Target: ≤ 250 µs.
 */
import { parse } from "../src/syntax/parse";
import type { AgentDecl, Expr, Program } from "../src/syntax/ast";
import { createSchemaTable } from "../src/schema/schema-table";
import { createToolInvoker } from "../src/runtime/tools/pipeline";
import { defaultToolHandlers } from "../src/tool-registry";
import { createAskRunner } from "../src/runtime/ask/create-ask-runner";
import type { AskRequest } from "../src/runtime/ask/ask-types";
import { startFakeProvider, type FakeTurn } from "../tests/support/fake-provider/fake-provider";
import { fmt, median } from "./measure";

const SOURCE = `
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema CalcResult { result: float }
schema Final { sum: float  note: string }
tool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {}
agent WithTool {
  model: M
  tools: [calculate]
  fn run() -> Final { ask "Add 20 and 22." -> Final }
}
agent NoTools {
  model: M
  fn run() -> Final { ask "Add 20 and 22." -> Final }
}
`;

function askRequest(program: Program, agentName: string): AskRequest {
  const agent = program.decls.find((d): d is AgentDecl => d.kind === "Agent" && d.name === agentName)!;
  const stmt = agent.methods[0].body[0] as { kind: "ExprStmt"; expr: Extract<Expr, { kind: "Ask" }> };
  return { agent, methodCall: { failures: 0 }, prompt: "Add 20 and 22.", target: stmt.expr.target, site: stmt.expr, location: "bench.luma" };
}

export async function benchAskRoundtrip(): Promise<void> {
  const fake = await startFakeProvider();
  fake.recording = false;
  const program = parse(SOURCE, "bench.luma").program!;
  const schemas = createSchemaTable(program);
  const env = { OPENAI_API_KEY: "sk-bench", LUMA_BASE_URL_M: fake.baseUrl("openai") };
  const tools = createToolInvoker({ program, schemas, registry: { handler: (n) => defaultToolHandlers[n] }, config: {}, env, warn: () => {} });
  const runner = createAskRunner({ program, schemas, tools, env, warn: () => {} });
  const withTool = askRequest(program, "WithTool");
  const noTools = askRequest(program, "NoTools");
  const final: FakeTurn = { json: { sum: 42, note: "done" } };
  const toolTurn: FakeTurn = { toolCalls: [{ name: "calculate", args: { a: 20, b: 22, operation: "add" } }] };

  /** Mean µs per ask over `n` asks. */
  const batch = async (req: AskRequest, turns: FakeTurn[], n: number): Promise<number> => {
    const script: FakeTurn[] = [];
    for (let i = 0; i < n; i++) script.push(...turns);
    fake.script(script);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await runner.ask({ ...req, methodCall: { failures: 0 } });
    return ((performance.now() - t0) * 1000) / n;
  };

  await batch(noTools, [final], 2000);
  await batch(withTool, [toolTurn, final], 2000);
  const plain: number[] = [];
  const tooled: number[] = [];
  const diffs: number[] = [];
  for (let round = 0; round < 15; round++) {
    const a = await batch(noTools, [final], 1000);
    const b = await batch(withTool, [toolTurn, final], 1000);
    plain.push(a);
    tooled.push(b);
    diffs.push(b - a);
  }
  fake.stop();
  console.log("ask round trip (in-process, loopback fake provider, medians of 15 × 1000 asks)");
  console.log(`  ask with no tools                      ${fmt(median(plain))} µs`);
  console.log(`  ask with one tool call + final answer  ${fmt(median(tooled))} µs`);
  console.log(`  native tool round trip (difference)    ${fmt(median(diffs))} µs   (target ≤ 250 µs)\n`);
}

if (import.meta.main) await benchAskRoundtrip();
