import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeProvider, program, runAsk } from "../ask/ask-harness";
import { REPO, runLuma } from "../support/luma-binary";

const ASK = `ask "Call both tools exactly once, then return only valid JSON." -> FinalResult`;
const TOOLS = `system: "Be careful."\n  tools: [text_stats, calculate]`;

describe('PROVIDERS — OpenAI Responses API (`api: "responses"`)', () => {
  test("function tools are flat, tool results are function_call_output items, reasoning items are carried to the next turn", async () => {
    const fake = await fakeProvider();
    fake.script([
      { toolCalls: [{ name: "text_stats", args: { text: "Luma DSL" }, id: "call_t" }, { name: "calculate", args: { a: 20, b: 22, operation: "add" }, id: "call_c" }] },
      { json: { words: 2, sum: 42 } },
    ]);
    const r = await runAsk(fake, program("openai-responses", TOOLS, ASK), { kind: "openai-responses" });
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(['{"words":2,"sum":42}']);
    const [first, second] = fake.requests;
    expect(first.path).toBe("/v1/responses");
    expect(first.headers.authorization).toBe("Bearer sk-test-openai");
    expect(first.body).toMatchObject({ model: "gpt-5.4-mini", instructions: "Be careful.", tool_choice: "auto", store: false, include: ["reasoning.encrypted_content"] });
    expect(first.body.input).toEqual([{ role: "user", content: "Call both tools exactly once, then return only valid JSON." }]);
    expect(first.body.tools[1]).toMatchObject({ type: "function", name: "calculate", description: "Adds or multiplies two numbers", strict: true });
    expect(first.body.text).toBeUndefined();
    // Turn 2: the user item, then turn 1's output items as received (reasoning first), then one output per call.
    const types = second.body.input.map((i: any) => i.type ?? i.role);
    expect(types).toEqual(["user", "reasoning", "function_call", "function_call", "function_call_output", "function_call_output"]);
    expect(second.body.input[1]).toEqual({ type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc-1" });
    expect(second.body.input.slice(4)).toEqual([
      { type: "function_call_output", call_id: "call_t", output: JSON.stringify({ characters: 8, words: 2 }) },
      { type: "function_call_output", call_id: "call_c", output: JSON.stringify({ result: 42 }) },
    ]);
    expect(second.body.text.format).toMatchObject({ type: "json_schema", name: "FinalResult", strict: true });
  });

  test("encrypted reasoning is asked for only from a reasoning model: the o-series and gpt-5 family by name, or as the reasoning_model key says", async () => {
    const fake = await fakeProvider();
    const cases: [string, string, boolean][] = [
      ["gpt-4o", "", false],
      ["gpt-4.1-mini", "", false],
      ["o4-mini", "", true],
      ["gpt-5.4-mini", "", true],
      ["gpt-4o", "reasoning_model: true", true],
      ["o3", "reasoning_model: false", false],
    ];
    for (const [name, key, included] of cases) {
      fake.script([{ json: { words: 2, sum: 42 } }]);
      const src = program("openai-responses", "", `ask "q" -> FinalResult`).replace('name: "gpt-5.4-mini"', `name: "${name}"  ${key}`);
      const r = await runAsk(fake, src, { kind: "openai-responses" });
      expect(r.error).toBeUndefined();
      const body = fake.requests[fake.requests.length - 1].body;
      expect({ name, key, include: body.include }).toEqual({ name, key, include: included ? ["reasoning.encrypted_content"] : undefined });
    }
  });

  test("a forced tool is {type:function, name}; max_tokens is max_output_tokens; strict tools turn parallel calls off", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "calculate", args: { a: 2, b: 3, operation: "multiply" } }] }, { json: { words: 0, sum: 6 } }]);
    const r = await runAsk(fake, program("openai-responses", TOOLS, `${ASK} using tool calculate`, { modelExtra: "max_tokens: 99" }), { kind: "openai-responses" });
    expect(r.error).toBeUndefined();
    expect(fake.requests[0].body).toMatchObject({ tool_choice: { type: "function", name: "calculate" }, max_output_tokens: 99, parallel_tool_calls: false });
    expect(fake.requests[0].body.max_tokens).toBeUndefined();
  });

  test("usage: input, output, cached and reasoning tokens reach provider.request and the ask's totals", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "calculate", args: { a: 1, b: 2, operation: "add" } }] }, { json: { words: 0, sum: 3 } }]);
    const r = await runAsk(fake, program("openai-responses", TOOLS, ASK), { kind: "openai-responses" });
    const reqs = r.trace.filter((e) => e.event === "provider.request");
    expect(reqs.map((e) => [e.tokens_in, e.tokens_out, e.tokens_cached, e.tokens_reasoning])).toEqual([[60, 8, 10, 1], [70, 9, 20, 2]]);
    expect(r.trace.find((e) => e.event === "ask")).toMatchObject({ tokens_in: 130, tokens_out: 17, tokens_cached: 30, tokens_reasoning: 3 });
  });

  test("a refusal item and an incomplete response (max_output_tokens) are read like Chat Completions' refusal and length", async () => {
    const fake = await fakeProvider();
    fake.script([{ refusal: "no" }, { text: "{", finish: "length" }]);
    const r = await runAsk(fake, program("openai-responses", "retries: 1", `ask "x" -> Answer`), { kind: "openai-responses" });
    expect(r.error?.code).toBe("ASK_OUTPUT_INVALID");
    expect(fake.requests[1].body.input.at(-1).content).toContain("The model refused to answer: no");
  });

  test('`api: "responses"` on another provider, or an unknown api, is rejected by the checker naming the model', () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-api-"));
    const file = join(dir, "m.luma");
    writeFileSync(file, `model M { provider: "anthropic"  name: "c"  api: "responses" }\nprint(1)\n`);
    const bad = runLuma(["check", file], { cwd: REPO });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`Model 'M': api "responses" is only for provider "openai"`);
    writeFileSync(file, `model M { provider: "openai"  name: "c"  api: "assistants" }\nprint(1)\n`);
    const unknown = runLuma(["check", file], { cwd: REPO });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("api");
  });
});
