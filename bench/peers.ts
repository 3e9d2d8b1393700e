/**
 * `bun run bench:peers` (issue #16 §5): Luma side by side with the Vercel AI SDK and TanStack
 * AI, in one run and one process, on the same two flows —
 *
 *   two-step  one native tool call, then the final structured answer (two model requests)
 *   direct    one direct call of the same tool (no model)
 *
 * Each peer is driven twice: through its own OpenAI provider package pointed at the same
 * loopback fake provider Luma uses (the same transport, so the figures compare), and with
 * its in-process mock model (no HTTP: what the HTTP hop costs becomes visible) — the AI
 * SDK's MockLanguageModelV4; TanStack AI ships no mock model, so its OpenAI client gets an
 * in-process `fetch` answering the same rendered turns. Peers are dev dependencies only.
 * Figures are µs per flow, medians of rounds.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, Output, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { chat, toolDefinition } from "@tanstack/ai";
import { createOpenaiChatCompletions } from "@tanstack/ai-openai";
import { z } from "zod";
import { parse } from "../src/syntax/parse";
import type { AgentDecl, Expr, Program } from "../src/syntax/ast";
import { createSchemaTable } from "../src/schema/schema-table";
import { createToolInvoker } from "../src/runtime/tools/pipeline";
import { defaultToolHandlers } from "../src/tool-registry";
import { createAskRunner } from "../src/runtime/ask/create-ask-runner";
import type { AskRequest } from "../src/runtime/ask/ask-types";
import { startFakeProvider, type FakeTurn } from "../tests/support/fake-provider/fake-provider";
import { render } from "../tests/support/fake-provider/wire-formats";
import { chatCompletionStream } from "../tests/support/fake-provider/wire-streams";
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
`;

const PROMPT = "Add 20 and 22.";
const INPUT = { a: 20, b: 22, operation: "add" as const };
const FINAL = { sum: 42, note: "done" };
const TURNS: FakeTurn[] = [{ toolCalls: [{ name: "calculate", args: INPUT }] }, { json: FINAL }];
const calculate = ({ a, b, operation }: { a: number; b: number; operation: "add" | "multiply" }) => ({ result: operation === "add" ? a + b : a * b });

const CALC_SCHEMA = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" }, operation: { type: "string", enum: ["add", "multiply"] } },
  required: ["a", "b", "operation"],
  additionalProperties: false,
} as const;
const FINAL_SCHEMA = { type: "object", properties: { sum: { type: "number" }, note: { type: "string" } }, required: ["sum", "note"], additionalProperties: false } as const;

type Flow = () => Promise<unknown>;

/** Median µs per flow over `rounds` rounds of `n`, after a warm-up round; `before(n)` scripts the fake. */
async function measure(flow: Flow, n: number, rounds: number, before?: (n: number) => void): Promise<number> {
  const round = async () => {
    before?.(n);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await flow();
    return ((performance.now() - t0) * 1000) / n;
  };
  await round();
  const xs: number[] = [];
  for (let r = 0; r < rounds; r++) xs.push(await round());
  return median(xs);
}

function check(label: string, got: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(FINAL)) throw new Error(`${label}: unexpected answer ${JSON.stringify(got)}`);
}

export async function benchPeers(): Promise<void> {
  const fake = await startFakeProvider();
  fake.recording = false;
  const script = (n: number) => fake.script(Array.from({ length: n }, () => TURNS).flat());
  const base = fake.baseUrl("openai");

  // ---- Luma
  const program: Program = parse(SOURCE, "bench.luma").program!;
  const schemas = createSchemaTable(program);
  const env = { OPENAI_API_KEY: "sk-bench", LUMA_BASE_URL_M: base };
  const tools = createToolInvoker({ program, schemas, registry: { handler: (n) => defaultToolHandlers[n] }, config: {}, env, warn: () => {} });
  const runner = createAskRunner({ program, schemas, tools, env, warn: () => {} });
  const agent = program.decls.find((d): d is AgentDecl => d.kind === "Agent")!;
  const site = (agent.methods[0].body[0] as { expr: Extract<Expr, { kind: "Ask" }> }).expr;
  const req: AskRequest = { agent, methodCall: { failures: 0 }, prompt: PROMPT, target: site.target, site, location: "bench.luma" };
  check("luma", await (script(1), runner.ask({ ...req })));
  const lumaTwoStep: Flow = () => runner.ask({ ...req, methodCall: { failures: 0 } });
  const lumaDirect: Flow = () => tools.call({ tool: "calculate", input: INPUT, mode: "direct" });

  // ---- Vercel AI SDK
  const aiTools = { calculate: tool({ description: "Adds or multiplies two numbers", inputSchema: jsonSchema<typeof INPUT>(CALC_SCHEMA as never), execute: async (i) => calculate(i) }) };
  const aiOutput = Output.object({ schema: jsonSchema<typeof FINAL>(FINAL_SCHEMA as never) });
  const aiHttpModel = createOpenAI({ baseURL: base, apiKey: "sk-bench" }).chat("gpt-5.4-mini");
  const usage = { inputTokens: { total: 50, noCache: 50, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 7, text: 7, reasoning: 0 } };
  const aiMockModel = () =>
    new MockLanguageModelV4({
      doGenerate: [
        { content: [{ type: "tool-call", toolCallId: "call_1", toolName: "calculate", input: JSON.stringify(INPUT) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] },
        { content: [{ type: "text", text: JSON.stringify(FINAL) }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
      ] as never,
    });
  const aiFlow = (model: () => Parameters<typeof generateText>[0]["model"]): Flow => async () => {
    const r = await generateText({ model: model(), tools: aiTools, stopWhen: stepCountIs(2), output: aiOutput, prompt: PROMPT });
    return r.output;
  };
  const aiHttp = aiFlow(() => aiHttpModel);
  const aiMock = aiFlow(aiMockModel);
  check("ai http", await (script(1), aiHttp()));
  check("ai mock", await aiMock());
  const aiDirect: Flow = async () => aiTools.calculate.execute!(INPUT, { toolCallId: "d", messages: [] } as never);

  // ---- TanStack AI
  const tsTool = toolDefinition({
    name: "calculate",
    description: "Adds or multiplies two numbers",
    inputSchema: z.object({ a: z.number(), b: z.number(), operation: z.enum(["add", "multiply"]) }),
  }).server(async (i) => calculate(i));
  const tsOutput = z.object({ sum: z.number(), note: z.string() });
  const tsAdapter = createOpenaiChatCompletions("gpt-4o-mini", "sk-bench", { baseURL: base });
  // With an outputSchema and no `stream: true`, chat() runs the tool loop and resolves to the parsed object.
  const tsFlow = (adapter: typeof tsAdapter): Flow => () =>
    chat({ adapter, messages: [{ role: "user", content: PROMPT }], tools: [tsTool], outputSchema: tsOutput } as never) as unknown as Promise<unknown>;
  const tsHttp = tsFlow(tsAdapter);
  check("tanstack http", await (script(1), tsHttp()));
  let served = 0;
  const inProcessFetch = (async (_url: unknown, init?: { body?: unknown }) => {
    const body = JSON.parse(String(init?.body));
    const r = render("openai", TURNS[served++ % 2], served, body.model);
    const out = body.stream === true ? chatCompletionStream(r) : r;
    return new Response(out.body, { status: out.status, headers: out.headers });
  }) as unknown as typeof fetch;
  const tsMockAdapter = createOpenaiChatCompletions("gpt-4o-mini", "sk-bench", { baseURL: base, fetch: inProcessFetch });
  const tsMock = tsFlow(tsMockAdapter);
  check("tanstack mock", await tsMock());
  const tsDirect: Flow = () => (tsTool as unknown as { execute: (i: unknown) => Promise<unknown> }).execute(INPUT);

  const N = 300;
  const R = 9;
  const rows: [string, number][] = [
    ["luma       two-step, loopback HTTP", await measure(lumaTwoStep, N, R, script)],
    ["ai-sdk     two-step, loopback HTTP", await measure(aiHttp, N, R, script)],
    ["tanstack   two-step, loopback HTTP", await measure(tsHttp, N, R, script)],
    ["ai-sdk     two-step, in-process mock", await measure(aiMock, N, R)],
    ["tanstack   two-step, in-process fetch", await measure(tsMock, N, R, () => void (served = 0))],
    ["luma       direct tool call (pipeline)", await measure(lumaDirect, N * 10, R)],
    ["ai-sdk     direct tool call (execute)", await measure(aiDirect, N * 10, R)],
    ["tanstack   direct tool call (execute)", await measure(tsDirect, N * 10, R)],
  ];
  fake.stop();
  const luma = (i: number) => rows[i][1];
  console.log(`peers (µs per flow; medians of ${R} rounds; loopback fake provider, one process)`);
  for (const [label, us] of rows) console.log(`  ${label.padEnd(40)} ${fmt(us).padStart(9)} µs`);
  console.log("ratios (peer / luma)");
  console.log(`  two-step over HTTP: ai-sdk ${fmt(rows[1][1] / luma(0), 2)}×, tanstack ${fmt(rows[2][1] / luma(0), 2)}×`);
  console.log(`  HTTP hop inside the two-step (http − in-process): ai-sdk ${fmt(rows[1][1] - rows[3][1])} µs, tanstack ${fmt(rows[2][1] - rows[4][1])} µs`);
  console.log(`  direct call: ai-sdk ${fmt(rows[6][1] / luma(5), 2)}×, tanstack ${fmt(rows[7][1] / luma(5), 2)}×`);
  console.log("  (a peer's direct call is its tool's execute(); Luma's runs the whole tool pipeline: policy, validation, trace)\n");
}

if (import.meta.main) await benchPeers();
