/**
 * Records the cassettes shipped beside the `ask` examples (examples/cassettes/NNN_*.jsonl),
 * against the fake provider: each example runs once with `--record`, its model redirected
 * to the fake with `LUMA_BASE_URL_<MODEL>`, the fake scripted with what a model would say.
 * The examples test then replays them through the binary, offline, with no key.
 *
 *   bun tests/support/fake-provider/record-example-cassettes.ts [NNN…]
 *
 * Re-run it (and `LUMA_UPDATE=1 bun test tests/examples.test.ts`) after changing one of
 * these examples: a changed prompt or schema changes the request hash.
 */
import { resolve } from "node:path";
import { runFile } from "../../../src/index";
import { LumaError } from "../../../src/diagnostics/luma-error";
import { startFakeProvider, type FakeTurn } from "./fake-provider";

type Kind = "openai" | "openai-compatible" | "azure-dated" | "anthropic" | "gemini";

interface Recording {
  file: string;
  model: string;
  kind: Kind;
  turns: FakeTurn[];
  /** `--tool-module` paths (relative to the repository) the example's `test-args` load. */
  toolModules?: string[];
  /** The error code the run stops with once its asks are recorded (a client tool no one answers here). */
  stopsWith?: string;
}

const calc = (a: number, b: number, operation: "add" | "multiply") => ({ name: "calculate", args: { a, b, operation } });
const stats = (text: string) => ({ name: "text_stats", args: { text } });
const comment = (author: string, text: string, score: number | null, replies: unknown[] = []) => ({ author, text, score, replies });
const THREAD = comment("ada", "Can schemas be recursive now?", 5, [
  comment("bob", "Yes, replies nest", 3, [comment("cy", "Even deeper?", null)]),
  comment("dan", "spam", 0),
]);

export const RECORDINGS: Recording[] = [
  {
    file: "040_ask_without_tools",
    model: "GPT54Mini",
    kind: "openai",
    turns: [{ json: { sentiment: "positive", summary: "Fast parsing and precise error locations make it pleasant to use.", score: 8 } }],
  },
  {
    file: "041_multi_tool_worker",
    model: "GPT54Mini",
    kind: "openai",
    turns: [
      { toolCalls: [stats("Luma DSL"), calc(20, 22, "add")] },
      { json: { words: 2, sum: 42, note: "text_stats counted 2 words in 'Luma DSL'; calculate added 20 and 22." } },
    ],
  },
  {
    file: "042_using_tool",
    model: "Claude",
    kind: "anthropic",
    turns: [
      { text: "I'll compute the total with the calculator.", toolCalls: [calc(3, 12.5, "multiply")] },
      { json: { total: 37.5, explanation: "3 items at 12.5 each come to 37.5." } },
    ],
  },
  {
    file: "043_retries",
    model: "GPT54Mini",
    kind: "openai",
    turns: [
      { text: "I would give this essay an 8 out of 10." },
      { json: { score: 12, reason: "Excellent and concise." } },
      { json: { score: 8, reason: "Clear and accurate, but brief." } },
      { json: { score: 11, reason: "Short but sweet." } },
    ],
  },
  {
    file: "044_anthropic",
    model: "Claude",
    kind: "anthropic",
    turns: [
      { toolCalls: [stats("Native tool calling lands for four provider families")] },
      { json: { headline: "Native tool calling lands for four provider families", words: 7 } },
    ],
  },
  {
    file: "045_gemini",
    model: "Flash",
    kind: "gemini",
    turns: [
      { toolCalls: [calc(12, 80, "multiply")] },
      { toolCalls: [calc(960, 0.2, "multiply"), calc(960, 1.2, "multiply")] },
      { json: { subtotal: 960, tax: 192, total: 1152 } },
    ],
  },
  {
    file: "046_azure",
    model: "AzureGpt",
    kind: "azure-dated",
    turns: [{ json: { category: "billing", priority: 2, reply: "Sorry about the double charge for March; we have refunded one of them." } }],
  },
  {
    file: "047_openai_compatible",
    model: "Local",
    kind: "openai-compatible",
    turns: [{ json: { value: ["types", "tools", "agents"] } }],
  },
  {
    file: "048_native_tool_errors",
    model: "GPT54Mini",
    kind: "openai",
    turns: [
      { toolCalls: [{ name: "calculate", args: { a: 7, b: 6, operation: "times" } }] },
      { toolCalls: [calc(7, 6, "multiply")] },
      { json: { value: 42 } },
    ],
  },
  {
    file: "049_tool_rate_limit",
    model: "GPT54Mini",
    kind: "openai",
    turns: [
      { toolCalls: [stats("one"), stats("one two"), stats("one two three")] },
      { json: { counted: 2, words: [1, 2] } },
    ],
  },
  {
    // OpenAI strict mode sends an optional field as null (cy's score): dropped through the $refs.
    file: "057_recursive_schema",
    model: "GPT54Mini",
    kind: "openai",
    toolModules: ["examples/tools/thread-tools.ts"],
    turns: [
      { toolCalls: [{ name: "thread_stats", args: { thread: THREAD } }] },
      { json: THREAD },
    ],
  },
  {
    // Recorded without REFUNDS_API_TOKEN: issue_refund is withheld; read_help_page's result is cut at 120 characters.
    file: "081_tool_audience",
    model: "GPT54Mini",
    kind: "openai",
    toolModules: ["examples/tools/audience-tools.ts"],
    turns: [
      { toolCalls: [{ name: "lookup_order", args: { id: "7" } }, { name: "read_help_page", args: { url: "https://help.example/shipping" } }] },
      { json: { answer: "Order 7 has shipped; standard delivery takes 3 to 5 business days, and the tracking link is in your email.", order_status: "shipped" } },
    ],
  },
  {
    file: "090_model_options",
    model: "Thinker",
    kind: "anthropic",
    turns: [{ json: { steps: ["Add column amount and backfill it from total", "Switch reads and writes to amount", "Drop total after a release"], risk: "medium" } }],
  },
  {
    // A thread: the second request carries the first exchange (its tool call and result too).
    file: "091_threads",
    model: "GPT54Mini",
    kind: "openai",
    turns: [
      { toolCalls: [{ name: "lookup_stock", args: { sku: "A-100" } }] },
      { json: { value: "We have 15 of A-100." } },
      { json: { value: "Yes: 15 in stock covers an order of 10, leaving 5." } },
    ],
  },
  {
    // Lazy tools: the model searches, the matches are declared on the next request, then it calls one.
    file: "082_lazy_tools",
    model: "GPT54Mini",
    kind: "openai",
    toolModules: ["examples/tools/lazy-tools.ts"],
    turns: [
      { toolCalls: [{ name: "search_tools", args: { query: "refund an order" } }] },
      { toolCalls: [{ name: "refund_order", args: { order_id: "o-7", amount: 19.9, reason: "arrived broken" } }] },
      { json: { message: "I refunded 19.90 EUR on order o-7 because it arrived broken." } },
    ],
  },
  {
    // Ada may get refunds (issue_refund offered); Bob may not (absent from his request).
    file: "080_agent_context",
    model: "M",
    kind: "openai",
    toolModules: ["examples/tools/support-tools.ts"],
    turns: [
      { toolCalls: [{ name: "lookup_order", args: { id: 7 } }] },
      { json: { value: "Hi Ada, order 7 has shipped." } },
      { json: { value: "Sorry Bob, refunds on the free plan go through our help centre." } },
    ],
  },
  {
    file: "100_agents_as_tools",
    model: "M",
    kind: "openai",
    toolModules: ["examples/tools/refund-tools.ts"],
    turns: [
      { toolCalls: [{ name: "Refunds_handle", args: { order_id: "A-7", reason: "It arrived broken." } }] },
      { toolCalls: [{ name: "lookup_order", args: { id: "A-7" } }] },
      { toolCalls: [{ name: "issue_refund", args: { id: "A-7", amount: 25 } }] },
      { json: { ok: true, note: "Refunded 25 on order A-7 (delivered, arrived broken)." } },
      { json: { value: "I'm sorry your order arrived broken. I've refunded the full 25 on order A-7." } },
    ],
  },
  {
    // Triage looks the order up and hands over; Refunds continues the same ask with its own tools.
    file: "102_handoffs",
    model: "M",
    kind: "openai",
    toolModules: ["examples/tools/refund-tools.ts"],
    turns: [
      { toolCalls: [{ name: "lookup_order", args: { id: "A-7" } }] },
      { toolCalls: [{ name: "transfer_to_Refunds", args: {} }] },
      { toolCalls: [{ name: "issue_refund", args: { id: "A-7", amount: 25 } }] },
      { json: { value: "I'm sorry your order arrived broken. I've refunded the full 25 on order A-7." } },
    ],
  },
  {
    file: "086_tools_kit_port",
    model: "M",
    kind: "openai",
    toolModules: ["examples/tools/kit-tools.ts"],
    turns: [
      { toolCalls: [{ name: "read_source", args: { topic: "the tools registry" } }] },
      { json: { value: "Tools are registered once and then sealed, so the set cannot change mid-run." } },
      { json: { value: "I cannot read the interface notes for you, so I cannot explain the tools registry here." } },
    ],
  },
  {
    file: "085_tanstack_port",
    model: "M",
    kind: "openai",
    toolModules: ["examples/tools/travel-tools.ts"],
    stopsWith: "CLIENT_TOOL_UNANSWERED",
    turns: [
      { toolCalls: [{ name: "search_tools", args: { query: "weather" } }] },
      { toolCalls: [{ name: "get_weather", args: { city: "Lisbon" } }] },
      { json: { value: "Yes: Lisbon is sunny and 21 °C today, a fine day to fly." } },
    ],
  },
];

const KEY_VARS: Record<Kind, string | undefined> = {
  openai: "OPENAI_API_KEY",
  "openai-compatible": undefined,
  "azure-dated": "AZURE_OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
  gemini: "GEMINI_API_KEY",
};

export async function recordExampleCassettes(only: string[] = []): Promise<void> {
  const repo = resolve(import.meta.dir, "../../..");
  const fake = await startFakeProvider();
  try {
    for (const rec of RECORDINGS) {
      if (only.length > 0 && !only.some((o) => rec.file.startsWith(o))) continue;
      fake.script(rec.turns);
      const env: Record<string, string | undefined> = { PATH: process.env.PATH, LUMA_NO_CACHE: "1", [`LUMA_BASE_URL_${rec.model.toUpperCase()}`]: fake.baseUrl(rec.kind) };
      const keyVar = KEY_VARS[rec.kind];
      if (keyVar) env[keyVar] = "recorded-against-the-fake-provider";
      const out: string[] = [];
      try {
        await runFile({
          file: `examples/${rec.file}.luma`,
          args: [],
          toolModules: rec.toolModules ?? [],
          cwd: repo,
          env,
          stdout: (l) => out.push(l),
          stderr: (l) => out.push(l),
          interactive: false,
          record: `examples/cassettes/${rec.file}.jsonl`,
        });
      } catch (e) {
        if (!(e instanceof LumaError) || e.code !== rec.stopsWith) throw e;
      }
      if (fake.pending !== 0) throw new Error(`${rec.file}: ${fake.pending} scripted turn(s) were not used`);
      console.log(`recorded examples/cassettes/${rec.file}.jsonl (${fake.requests.length} exchanges)\n  ${out.join("\n  ")}`);
    }
  } finally {
    fake.stop();
  }
}

if (import.meta.main) await recordExampleCassettes(process.argv.slice(2));
