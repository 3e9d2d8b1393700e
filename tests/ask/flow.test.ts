import { describe, expect, test } from "bun:test";
import { fakeProvider, program, runAsk } from "./ask-harness";
import { FAMILIES, finalFormat, systemPrompt, toolChoice, toolNames, toolResults } from "./wire-inspect";

const BOTH_TOOLS = `system: "You are a careful assistant."
  tools: [text_stats, calculate]
  tool_concurrency: 2`;
const SEED_PROMPT = `ask "Call both tools exactly once, then return only valid JSON." -> FinalResult`;

describe("§7 ask — the multi-turn flow, for every provider family", () => {
  for (const kind of FAMILIES) {
    test(`${kind}: "first request → messages + tools + tool_choice auto; NO response_format"`, async () => {
      const fake = await fakeProvider();
      fake.script([
        { toolCalls: [{ name: "text_stats", args: { text: "Luma DSL" } }, { name: "calculate", args: { a: 20, b: 22, operation: "add" } }] },
        { json: { words: 2, sum: 42 } },
      ]);
      const r = await runAsk(fake, program(kind, BOTH_TOOLS, SEED_PROMPT), { kind });
      expect(r.error).toBeUndefined();
      expect(r.out).toEqual(['{"words":2,"sum":42}']);
      const [first, second] = fake.requests;
      expect(fake.requests.length).toBe(2);
      expect(toolNames(first)).toEqual(["text_stats", "calculate"]);
      expect(toolChoice(first)).toBe("auto");
      expect(finalFormat(first)).toBeUndefined();
      expect(systemPrompt(first)).toBe("You are a careful assistant.");

      // "messages ← assistant(tool calls) + one tool-result message per call", then the strict schema.
      const results = toolResults(second);
      expect(results.map((x) => x.content)).toEqual([{ characters: 8, words: 2 }, { result: 42 }]);
      expect(toolChoice(second)).toBe("auto");
      expect(finalFormat(second)).toEqual({
        type: "object",
        additionalProperties: false,
        required: ["words", "sum"],
        properties: { words: { type: "integer" }, sum: { type: "number" } },
      });
    });

    test(`${kind}: "without tools, every request carries the strict JSON-schema response format"`, async () => {
      const fake = await fakeProvider();
      fake.script([{ json: { summary: "Fine.", score: 7 } }]);
      const r = await runAsk(fake, program(kind, "", `ask "Rate it" -> Answer`), { kind });
      expect(r.error).toBeUndefined();
      expect(r.out).toEqual(['{"summary":"Fine.","score":7}']);
      const [only] = fake.requests;
      expect(toolNames(only)).toEqual([]);
      expect(finalFormat(only)?.required).toContain("summary");
      expect(systemPrompt(only)).toBeUndefined();
    });
  }

  test('provider mapping: OpenAI tool results are `role: "tool"` messages answering each tool_call_id', async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "calculate", args: { a: 1, b: 2, operation: "add" }, id: "call_abc" }] }, { json: { words: 0, sum: 3 } }]);
    await runAsk(fake, program("openai", "tools: [calculate]", SEED_PROMPT));
    const msgs = fake.requests[1].body.messages;
    expect(msgs[1]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_abc", type: "function", function: { name: "calculate", arguments: '{"a":1,"b":2,"operation":"add"}' } }],
    });
    expect(msgs[2]).toEqual({ role: "tool", tool_call_id: "call_abc", content: '{"result":3}' });
    expect(fake.requests[1].body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "FinalResult", strict: true } });
  });

  test("provider mapping: Anthropic replays the assistant content and answers with tool_result blocks in one user message", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "calculate", args: { a: 1, b: 2, operation: "add" } }], text: "Let me add." }, { json: { words: 0, sum: 3 } }]);
    await runAsk(fake, program("anthropic", "tools: [calculate]", SEED_PROMPT), { kind: "anthropic" });
    const req = fake.requests[1];
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.body.max_tokens).toBe(4096);
    expect(req.body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Let me add." },
        { type: "tool_use", id: "toolu_1_0", name: "calculate", input: { a: 1, b: 2, operation: "add" } },
      ],
    });
    expect(req.body.messages[2]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1_0", content: '{"result":3}' }] });
    expect(req.body.output_config).toEqual({ format: { type: "json_schema", schema: expect.any(Object) } });
  });

  test("provider mapping: Gemini replays the model turn verbatim (thought signature kept) and echoes call ids only when given", async () => {
    const fake = await fakeProvider();
    fake.script([
      { toolCalls: [{ name: "calculate", args: { a: 1, b: 2, operation: "add" } }, { name: "text_stats", args: { text: "a b" }, id: "fc-7" }] },
      { json: { words: 2, sum: 3 } },
    ]);
    const r = await runAsk(fake, program("gemini", "tools: [calculate, text_stats]", SEED_PROMPT), { kind: "gemini" });
    expect(r.error).toBeUndefined();
    const req = fake.requests[1];
    expect(req.path).toBe("/v1beta/models/gemini-3-flash:generateContent");
    expect(req.body.contents[1]).toEqual({
      role: "model",
      parts: [
        { functionCall: { name: "calculate", args: { a: 1, b: 2, operation: "add" } }, thoughtSignature: btoa("sig-1") },
        { functionCall: { id: "fc-7", name: "text_stats", args: { text: "a b" } } },
      ],
    });
    expect(req.body.contents[2]).toEqual({
      role: "user",
      parts: [
        { functionResponse: { name: "calculate", response: { output: { result: 3 } } } },
        { functionResponse: { id: "fc-7", name: "text_stats", response: { output: { characters: 3, words: 2 } } } },
      ],
    });
    expect(req.body.generationConfig.responseMimeType).toBe("application/json");
  });

  test("a model with tools that answers without calling any: no format was enforced, local validation still applies", async () => {
    const fake = await fakeProvider();
    fake.script([{ json: { words: 1, sum: 2 } }]);
    const r = await runAsk(fake, program("openai", "tools: [calculate]", SEED_PROMPT));
    expect(r.out).toEqual(['{"words":1,"sum":2}']);
    expect(fake.requests.length).toBe(1);
    expect(finalFormat(fake.requests[0])).toBeUndefined();
  });

  test("model settings reach the wire: temperature and max_tokens (max_completion_tokens at OpenAI, max_tokens for compatible servers)", async () => {
    const fake = await fakeProvider();
    const cases = [
      ["openai", (b: any) => [b.temperature, b.max_completion_tokens]],
      ["openai-compatible", (b: any) => [b.temperature, b.max_tokens]],
      ["anthropic", (b: any) => [b.temperature, b.max_tokens]],
      ["gemini", (b: any) => [b.generationConfig.temperature, b.generationConfig.maxOutputTokens]],
    ] as const;
    for (const [kind, read] of cases) {
      fake.script([{ json: { summary: "x", score: 1 } }]);
      const r = await runAsk(fake, program(kind, "", `ask "x" -> Answer`, { modelExtra: "temperature: 0  max_tokens: 321" }), { kind });
      expect(r.error).toBeUndefined();
      expect(read(fake.requests[0].body)).toEqual([0, 321]);
    }
  });
});

describe("§7 ask — using tool x", () => {
  for (const kind of FAMILIES) {
    test(`${kind}: "forces the tool on the first request only; once it has been called, back to auto with the strict format"`, async () => {
      const fake = await fakeProvider();
      fake.script([{ toolCalls: [{ name: "calculate", args: { a: 2, b: 3, operation: "multiply" } }] }, { json: { words: 0, sum: 6 } }]);
      const r = await runAsk(fake, program(kind, "tools: [text_stats, calculate]", `ask "Settle 2*3" -> FinalResult using tool calculate`), { kind });
      expect(r.error).toBeUndefined();
      expect(r.out).toEqual(['{"words":0,"sum":6}']);
      expect(toolChoice(fake.requests[0])).toEqual({ tool: "calculate" });
      expect(finalFormat(fake.requests[0])).toBeUndefined();
      expect(toolChoice(fake.requests[1])).toBe("auto");
      expect(finalFormat(fake.requests[1])).toBeDefined();
    });
  }

  test("the exact forced-tool wire forms: OpenAI function choice, Anthropic {type:tool}, Gemini ANY + allowedFunctionNames, compatible servers 'required' with that tool alone", async () => {
    const fake = await fakeProvider();
    const expected: Record<string, (b: any) => unknown> = {
      openai: (b) => expect(b.tool_choice).toEqual({ type: "function", function: { name: "calculate" } }),
      anthropic: (b) => expect(b.tool_choice).toEqual({ type: "tool", name: "calculate" }),
      gemini: (b) => expect(b.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["calculate"] } }),
      "openai-compatible": (b) => {
        expect(b.tool_choice).toBe("required");
        expect(b.tools.map((t: any) => t.function.name)).toEqual(["calculate"]);
      },
    };
    for (const [kind, check] of Object.entries(expected)) {
      fake.script([{ toolCalls: [{ name: "calculate", args: { a: 2, b: 3, operation: "add" } }] }, { json: { words: 0, sum: 5 } }]);
      await runAsk(fake, program(kind as any, "tools: [text_stats, calculate]", `ask "x" -> FinalResult using tool calculate`), { kind: kind as any });
      check(fake.requests[0].body);
    }
  });
});
