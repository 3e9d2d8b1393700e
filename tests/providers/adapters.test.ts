import { describe, expect, test } from "bun:test";
import { adapterFor } from "../../src/runtime/providers/adapter-table";

const openai = adapterFor("openai");
const anthropic = adapterFor("anthropic");
const gemini = adapterFor("gemini");

describe("OpenAI-compatible responses (wire notes §1.5, §1.9)", () => {
  test("`tool_calls: []` from a compatible server means no calls, and is never sent back", () => {
    const r = openai.parseResponse({ choices: [{ finish_reason: "stop", message: { role: "assistant", content: '{"a":1}', tool_calls: [] } }] }, 0);
    expect(r.toolCalls).toEqual([]);
    expect(r.finish).toBe("stop");
    expect(r.assistant).toEqual({ role: "assistant", content: '{"a":1}' });
  });
  test("arguments: JSON text, empty text (no arguments), an object (some servers), invalid JSON (kept as an error)", () => {
    const call = (args: unknown) => ({ id: "c", type: "function", function: { name: "t", arguments: args } });
    const r = openai.parseResponse({ choices: [{ finish_reason: "tool_calls", message: { content: null, tool_calls: [call('{"x":1}'), call(""), call({ y: 2 }), call("{x")] } }] }, 0);
    expect(r.toolCalls.map((c) => c.args)).toEqual([{ x: 1 }, {}, { y: 2 }, undefined]);
    expect(r.toolCalls[3].argsError).toBeString();
  });
  test("usage, content parts and finish reasons", () => {
    const r = openai.parseResponse({ choices: [{ finish_reason: "length", message: { content: [{ type: "text", text: "{" }, { type: "text", text: "}" }] } }], usage: { prompt_tokens: 3, completion_tokens: 4 } }, 0);
    expect([r.text, r.finish, r.usage]).toEqual(["{}", "length", { input: 3, output: 4 }]);
    expect(() => openai.parseResponse({ error: "x" }, 0)).toThrow("no choices[0].message in the response");
  });
  test("error envelopes: OpenAI/Azure nested, vLLM's older flat form", () => {
    expect(openai.errorMessage({ error: { message: "bad", type: "invalid_request_error", code: 400 } })).toBe("bad");
    expect(openai.errorMessage({ object: "error", message: "flat", code: 400 })).toBe("flat");
  });
});

describe("Anthropic responses (wire notes §3.5)", () => {
  test("thinking blocks are not answer text but are replayed; usage counts cached input", () => {
    const content = [
      { type: "thinking", thinking: "hmm", signature: "s" },
      { type: "text", text: '{"ok":true}' },
    ];
    const r = anthropic.parseResponse({ content, stop_reason: "end_turn", usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 5, cache_creation_input_tokens: null } }, 0);
    expect(r.text).toBe('{"ok":true}');
    expect(r.assistant).toEqual({ role: "assistant", content });
    expect(r.usage).toEqual({ input: 15, output: 2, cached: 5 });
  });
  test("stop_reason refusal / max_tokens", () => {
    expect(anthropic.parseResponse({ content: [], stop_reason: "refusal", usage: {} }, 0).refusal).toBe("the model refused to answer");
    expect(anthropic.parseResponse({ content: [{ type: "text", text: "{" }], stop_reason: "max_tokens" }, 0).finish).toBe("length");
  });
});

describe("Gemini responses (wire notes §4.5)", () => {
  test("thought parts are not answer text; calls without ids get local ids, matched by position", () => {
    const r = gemini.parseResponse(
      {
        candidates: [{ finishReason: "STOP", content: { role: "model", parts: [{ text: "plan", thought: true }, { functionCall: { name: "a", args: { x: 1 } } }, { functionCall: { name: "b" } }] } }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, thoughtsTokenCount: 3 },
      },
      4,
    );
    expect(r.text).toBe("");
    expect(r.toolCalls).toEqual([
      { id: "call_4_0", nativeId: false, name: "a", args: { x: 1 } },
      { id: "call_4_1", nativeId: false, name: "b", args: {} },
    ]);
    expect(r.finish).toBe("tool_calls");
    expect(r.usage).toEqual({ input: 5, output: 5, reasoning: 3 });
  });
  test("a blocked prompt (no candidates) is a refusal; SAFETY too; an empty body is unreadable", () => {
    expect(gemini.parseResponse({ promptFeedback: { blockReason: "SAFETY" } }, 0).refusal).toBe("the prompt was blocked (SAFETY)");
    expect(gemini.parseResponse({ candidates: [{ finishReason: "SAFETY", content: { parts: [] } }] }, 0).finish).toBe("refusal");
    expect(() => gemini.parseResponse({}, 0)).toThrow("no candidates in the response");
  });
  test("functionResponse.response must be an object: {output} for results, {error} for failures", () => {
    const call = { id: "call_0_0", nativeId: false, name: "t", args: {} };
    const req = gemini.buildRequest(
      { decl: "M", provider: "gemini", name: "g", baseUrl: "https://h" },
      {
        transcript: [
          { kind: "user", text: "q" },
          { kind: "tool_results", results: [{ call, content: ["a"], isError: false }, { call, content: { error: { code: "X", message: "m", retryable: false } }, isError: true }] },
        ],
        toolChoice: { type: "auto" },
      },
    );
    expect((req.body.contents as any[])[0].parts).toEqual([
      { text: "q" },
      { functionResponse: { name: "t", response: { output: ["a"] } } },
      { functionResponse: { name: "t", response: { error: { code: "X", message: "m", retryable: false } } } },
    ]);
  });
});
