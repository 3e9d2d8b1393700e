/**
 * Issue #25 §3 figure: what lazy tools save on the wire. An agent with 300 tools sends its
 * first `ask` request to the loopback fake provider twice — the tools eager, then the same
 * tools with `lazy: true` (declared through `search_tools` only) — on the Chat Completions,
 * Anthropic and Gemini wires. The bytes are those of the request body as sent (JSON).
 * Target: the lazy first request is at most 5 % of the eager one; over it, the benchmark
 * fails (a non-zero exit of `bun run bench`).
 */
import { parse } from "../src/syntax/parse";
import type { AgentDecl, Expr, Program } from "../src/syntax/ast";
import { createSchemaTable } from "../src/schema/schema-table";
import { createToolInvoker } from "../src/runtime/tools/pipeline";
import { createAskRunner } from "../src/runtime/ask/create-ask-runner";
import { startFakeProvider, type FakeProvider } from "../tests/support/fake-provider/fake-provider";
import { fmt } from "./measure";

const TOOL_COUNT = 300;
const TARGET = 0.05;
const VERBS = ["get", "list", "create", "update", "delete", "search", "export", "archive", "restore", "sync"];
const NOUNS = ["order", "invoice", "customer", "ticket", "refund", "shipment", "product", "coupon", "subscription", "payment",
  "report", "address", "review", "warehouse", "supplier", "contract", "lead", "campaign", "employee", "meeting",
  "document", "folder", "comment", "label", "webhook", "project", "task", "budget", "asset", "license"];

/** 300 tools of a realistic size: a description sentence and three typed parameters each. */
function source(provider: string, name: string, lazy: boolean): string {
  const tools: string[] = [];
  const names: string[] = [];
  for (let i = 0; i < TOOL_COUNT; i++) {
    const verb = VERBS[i % VERBS.length];
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
    const tool = `${verb}_${noun}`;
    names.push(tool);
    tools.push(`tool ${tool}(${noun}_id: string, note: string @desc("Why the ${noun} is touched"), limit?: int @range(1, 100)) -> Done {
  description: "${verb[0].toUpperCase()}${verb.slice(1)}s a ${noun} of the account, by its id, and says what changed"${lazy ? "\n  lazy: true" : ""}
}`);
  }
  return `model M { provider: "${provider}"  name: "${name}" }
schema Done { ok: bool }
${tools.join("\n")}
agent Desk {
  model: M
  tools: [${names.join(", ")}]
  fn run() -> Done { ask "Refund order 7." -> Done }
}
`;
}

/** The bytes of the first request body of one `ask`. */
async function firstRequestBytes(fake: FakeProvider, provider: string, model: string, kind: "openai" | "anthropic" | "gemini", lazy: boolean): Promise<number> {
  const program: Program = parse(source(provider, model, lazy), "bench.luma").program!;
  const schemas = createSchemaTable(program);
  const env = { OPENAI_API_KEY: "sk-bench", ANTHROPIC_API_KEY: "sk-ant-bench", GEMINI_API_KEY: "gemini-bench", LUMA_BASE_URL_M: fake.baseUrl(kind) };
  const tools = createToolInvoker({ program, schemas, registry: { handler: () => undefined }, config: {}, env, warn: () => {} });
  const runner = createAskRunner({ program, schemas, tools, env, warn: () => {} });
  const agent = program.decls.find((d): d is AgentDecl => d.kind === "Agent")!;
  const ask = (agent.methods[0].body[0] as { kind: "ExprStmt"; expr: Extract<Expr, { kind: "Ask" }> }).expr;
  fake.script([{ json: { ok: true } }]);
  await runner.ask({ agent, methodCall: { failures: 0 }, prompt: "Refund order 7.", target: ask.target, site: ask, location: "bench.luma" });
  return new TextEncoder().encode(JSON.stringify(fake.requests[0].body)).byteLength;
}

export async function benchLazyTools(): Promise<void> {
  const fake = await startFakeProvider();
  const wires = [
    { label: "Chat Completions", provider: "openai", model: "gpt-5.4-mini", kind: "openai" as const },
    { label: "Anthropic Messages", provider: "anthropic", model: "claude-sonnet-4-5", kind: "anthropic" as const },
    { label: "Gemini generateContent", provider: "gemini", model: "gemini-3-flash", kind: "gemini" as const },
  ];
  console.log(`lazy tools: the first request of an ask, ${TOOL_COUNT} tools eager vs lazy (target ≤ ${TARGET * 100} %)`);
  const over: string[] = [];
  try {
    for (const w of wires) {
      const eager = await firstRequestBytes(fake, w.provider, w.model, w.kind, false);
      const lazy = await firstRequestBytes(fake, w.provider, w.model, w.kind, true);
      const ratio = lazy / eager;
      console.log(`  ${w.label.padEnd(24)} eager ${String(eager).padStart(7)} B   lazy ${String(lazy).padStart(6)} B   ratio ${fmt(ratio * 100, 2)} %`);
      if (ratio > TARGET) over.push(`${w.label}: ${fmt(ratio * 100, 2)} %`);
    }
  } finally {
    fake.stop();
  }
  console.log("");
  if (over.length > 0) throw new Error(`lazy tools: the first request is over ${TARGET * 100} % of the eager one (${over.join("; ")})`);
}

if (import.meta.main) await benchLazyTools();
