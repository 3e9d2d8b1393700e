/**
 * Lazy tools (issue #25 §3, docs/language/tools.md "Lazy tools"), through the real `dist/luma`
 * against the fake provider speaking each family's wire format: a `lazy: true` tool is not
 * declared up front; the model gets `search_tools`, whose result lists the matching lazy tools
 * (which are then declared on the following requests); a lazy tool called before it was found
 * gets an error result telling the model to search first; code calls a lazy tool as any other.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { ensureBinary, runLuma } from "../support/luma-binary";
import { KEYS, modelDecl, type ProviderKind } from "./ask-harness";
import { toolChoice, toolNames, toolParameters, toolResults } from "./wire-inspect";

const TOOLS_TS = `
export const tools = {
  get_weather: (input) => ({ text: "sunny in " + input.city }),
  refund_order: (input) => ({ text: "refunded " + input.amount + " on " + input.order_id }),
  lookup_order: (input) => ({ text: "order " + input.order_id + " shipped" }),
  send_email: (input) => ({ text: "sent to " + input.to }),
};
`;

const DECLS = `
schema Done { text: string }
tool get_weather(city: string) -> Done { description: "Current weather for a city" }
tool refund_order(order_id: string, amount: float) -> Done {
  side_effects: "write"
  description: "Refunds an order, in full or in part"
  lazy: true
}
tool lookup_order(order_id: string) -> Done {
  side_effects: "read"
  description: "Looks up an order's shipping status"
  lazy: true
}
tool send_email(to: string, subject: string, body: string) -> Done {
  side_effects: "write"
  description: "Sends an email to a customer"
  lazy: true
}
`;

const program = (kind: ProviderKind) => `${modelDecl(kind)}${DECLS}
agent Support {
  model: M
  tools: [get_weather, refund_order, lookup_order, send_email]
  tool_policy: "allow"
  fn run() -> Done { ask "Refund 2.5 on order o-7." -> Done }
}
print(tool refund_order({ order_id: "o-1", amount: 1.0 }).text)
print(Support.run().text)
`;

const fakes: FakeProvider[] = [];
afterAll(() => fakes.forEach((f) => f.stop()));
let shared: FakeProvider | undefined;
const fake = async () => {
  if (!shared) {
    shared = await startFakeProvider();
    fakes.push(shared);
  }
  return shared;
};

async function run(kind: ProviderKind, source: string, f: FakeProvider) {
  const dir = mkdtempSync(join(tmpdir(), "luma-lazy-"));
  writeFileSync(join(dir, "main.luma"), source);
  writeFileSync(join(dir, "tools.ts"), TOOLS_TS);
  const p = Bun.spawn([ensureBinary(), "main.luma", "--tool-module", "tools.ts", "--trace", "trace.jsonl"], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...KEYS[kind], LUMA_BASE_URL_M: f.baseUrl(kind) },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const trace = readFileSync(join(dir, "trace.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  return { stdout, stderr, exitCode, trace, dir };
}

const KINDS: ProviderKind[] = ["openai", "openai-responses", "anthropic", "gemini"];

describe("lazy tools: found through search_tools, the same on every provider family", () => {
  for (const kind of KINDS) {
    test(`${kind}: not declared up front; called unfound → search first; search lists and declares; then it runs`, async () => {
      const f = await fake();
      f.script([
        { toolCalls: [{ name: "refund_order", args: { order_id: "o-7", amount: 2.5 } }] },
        { toolCalls: [{ name: "search_tools", args: { query: "refund an order" } }] },
        { toolCalls: [{ name: "refund_order", args: { order_id: "o-7", amount: 2.5 } }] },
        { json: { text: "Refunded." } },
      ]);
      const r = await run(kind, program(kind), f);
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe("refunded 1 on o-1\nRefunded.\n");
      const [first, second, third, fourth] = f.requests;
      expect(f.requests.length).toBe(4);

      // First request: the eager tool and search_tools only.
      expect(toolNames(first)).toEqual(["get_weather", "search_tools"]);
      expect(toolParameters(first, "search_tools")).toMatchObject({ type: "object", required: ["query"] });

      // A lazy tool called before it was found: an error result telling the model to search first.
      const [refused] = toolResults(second);
      expect(refused.content.error.code).toBe("TOOL_NOT_FOUND");
      expect(refused.content.error.message).toContain("call search_tools first");
      expect(toolNames(second)).toEqual(["get_weather", "search_tools"]);

      // The search result: best match first, with description and parameters as JSON Schema.
      const [found] = toolResults(third);
      expect(found.content.tools.map((t: { name: string }) => t.name)).toEqual(["refund_order", "lookup_order"]);
      expect(found.content.tools[0].description).toBe("Refunds an order, in full or in part");
      expect(found.content.tools[0].parameters).toMatchObject({ type: "object", properties: { order_id: { type: "string" }, amount: { type: "number" } } });
      // Found tools are declared from the next request on; search_tools stays while send_email is not found.
      expect(toolNames(third)).toEqual(["get_weather", "refund_order", "lookup_order", "search_tools"]);

      // The found tool now runs through the pipeline.
      expect(toolResults(fourth)[0].content).toEqual({ text: "refunded 2.5 on o-7" });

      // Traced: the query and the tools found.
      const searches = r.trace.filter((e) => e.event === "tool.search");
      expect(searches).toEqual([{ ts: expect.any(String), event: "tool.search", agent: "Support", query: "refund an order", found: ["refund_order", "lookup_order"], remaining: 1 }]);
    });
  }

  test("search_tools is no longer offered once every lazy tool is found; a search that matches nothing says so", async () => {
    const f = await fake();
    f.script([
      { toolCalls: [{ name: "search_tools", args: { query: "quantum teleportation" } }] },
      { toolCalls: [{ name: "search_tools", args: { query: "order email" } }] },
      { json: { text: "ok" } },
    ]);
    const r = await run("openai", program("openai"), f);
    expect(r.exitCode).toBe(0);
    const [, second, third] = f.requests;
    const [none] = toolResults(second);
    expect(none.content.tools).toEqual([]);
    expect(none.content.note).toContain("No tool matched");
    expect(toolNames(second)).toEqual(["get_weather", "search_tools"]);
    const [all] = toolResults(third);
    expect(all.content.tools.map((t: { name: string }) => t.name).sort()).toEqual(["lookup_order", "refund_order", "send_email"]);
    expect(toolNames(third)).not.toContain("search_tools");
    expect(toolNames(third)).toHaveLength(4);
  });

  test("discovery is per ask: the next ask starts with nothing found again", async () => {
    const f = await fake();
    const twice = program("openai").replace("print(Support.run().text)", "print(Support.run().text)\nprint(Support.run().text)");
    f.script([
      { toolCalls: [{ name: "search_tools", args: { query: "refund" } }] },
      { json: { text: "one" } },
      { json: { text: "two" } },
    ]);
    const r = await run("openai", twice, f);
    expect(r.stdout).toBe("refunded 1 on o-1\none\ntwo\n");
    expect(toolNames(f.requests[1])).toContain("refund_order");
    expect(toolNames(f.requests[2])).toEqual(["get_weather", "search_tools"]);
  });

  test("an agent without lazy tools is offered no search_tools", async () => {
    const f = await fake();
    f.script([{ json: { text: "plain" } }]);
    const eager = program("openai").replaceAll("lazy: true", "lazy: false");
    const r = await run("openai", eager, f);
    expect(r.exitCode).toBe(0);
    expect(toolNames(f.requests[0])).toEqual(["get_weather", "refund_order", "lookup_order", "send_email"]);
  });

  test("luma test: a mock turn calls search_tools, the next calls the tool it found", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-lazy-test-"));
    writeFileSync(join(dir, "tools.ts"), TOOLS_TS);
    writeFileSync(join(dir, "desk.luma"), program("openai").replace(/^print\(.*$/gm, ""));
    writeFileSync(join(dir, "desk.test.luma"), `use "desk.luma"
test "the model searches, then refunds" {
  mock M [
    { calls: [{ tool: "refund_order", input: { order_id: "o-7", amount: 2.5 } }] },
    { calls: [{ tool: "search_tools", input: { query: "refund" } }] },
    { calls: [{ tool: "refund_order", input: { order_id: "o-7", amount: 2.5 } }] },
    { answer: { text: "done" } },
  ]
  assert Support.run().text == "done"
  assert calls("refund_order") == 1
}
`);
    const r = runLuma(["test", "desk.test.luma", "--tool-module", "tools.ts"], { cwd: dir });
    expect(r.stdout).toContain("pass desk.test.luma › the model searches, then refunds");
    expect(r.exitCode).toBe(0);
  });

  test("a lazy tool searched and called in the same turn is refused (found counts from the next turn); `using tool` of a lazy tool declares it from the start", async () => {
    const f = await fake();
    f.script([
      { toolCalls: [{ name: "search_tools", args: { query: "email" } }, { name: "send_email", args: { to: "a@b.c", subject: "Hi", body: "Hello" } }] },
      { json: { text: "ok" } },
    ]);
    const r = await run("anthropic", program("anthropic"), f);
    expect(r.exitCode).toBe(0);
    const [search, call] = toolResults(f.requests[1]);
    expect(search.content.tools.map((t: { name: string }) => t.name)).toEqual(["send_email"]);
    expect(call.isError).toBe(true);
    expect(call.content.error.code).toBe("TOOL_NOT_FOUND");

    f.script([{ toolCalls: [{ name: "lookup_order", args: { order_id: "o-7" } }] }, { json: { text: "shipped" } }]);
    const forced = program("openai").replace('ask "Refund 2.5 on order o-7." -> Done', 'ask "Where is o-7?" -> Done using tool lookup_order');
    const g = await run("openai", forced, f);
    expect(g.stdout).toBe("refunded 1 on o-1\nshipped\n");
    expect(toolNames(f.requests[0])).toEqual(["get_weather", "lookup_order", "search_tools"]);
    expect(toolChoice(f.requests[0])).toEqual({ tool: "lookup_order" });
    expect(toolResults(f.requests[1])[0].content).toEqual({ text: "order o-7 shipped" });
  });
});
