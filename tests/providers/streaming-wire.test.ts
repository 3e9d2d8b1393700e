/**
 * Issue #26 §2, the wire: every family streams — Chat Completions (OpenAI, Azure,
 * compatible) with usage in the stream, Responses events, Anthropic events, Gemini's
 * `streamGenerateContent` SSE — read from the fake provider's real event formats. A streamed
 * turn hands its text on in pieces as they come and ends with the same result as the
 * unstreamed turn: text, tool calls, finish, usage, the assistant turn to replay.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { adapterFor } from "../../src/runtime/providers/adapter-table";
import { requestTurn, type ProviderClient } from "../../src/runtime/providers/provider-client";
import { resolveModel } from "../../src/runtime/providers/resolve-model";
import { fetchTransport } from "../../src/runtime/providers/transport";
import type { TurnRequest, TurnResult } from "../../src/runtime/providers/provider-types";
import type { ModelDecl } from "../../src/syntax/ast";
import { parse } from "../../src/syntax/parse";
import { KEYS, modelDecl, type ProviderKind } from "../ask/ask-harness";
import { startFakeProvider, type FakeTurn } from "../support/fake-provider/fake-provider";

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const client: ProviderClient = { transport: fetchTransport(), sleep: async () => {}, now: () => performance.now() };

function modelOf(kind: ProviderKind) {
  const program = parse(modelDecl(kind), "m.luma").program!;
  return resolveModel(program.decls[0] as ModelDecl, { ...KEYS[kind], LUMA_BASE_URL_M: fake.baseUrl(kind) });
}

const TOOL = { name: "lookup_order", description: "Finds an order", parameters: { type: "object", properties: { id: { type: "integer" } }, required: ["id"], additionalProperties: false } };

async function turnOf(kind: ProviderKind, script: FakeTurn, stream: boolean): Promise<{ result: TurnResult; deltas: string[]; body: any; path: string }> {
  const model = modelOf(kind);
  const adapter = adapterFor(model);
  const deltas: string[] = [];
  const turn: TurnRequest = {
    system: "Be brief.",
    transcript: [{ kind: "user", text: "Where is order 7?" }],
    tools: adapter.prepareTools([TOOL]),
    toolChoice: { type: "auto" },
    ...(stream ? { onText: (d: string) => deltas.push(d) } : {}),
  };
  fake.script([script]);
  const result = await requestTurn(client, model, adapter, turn, { turn: 0 });
  return { result, deltas, body: fake.requests[0].body, path: fake.requests[0].path };
}

const KINDS: ProviderKind[] = ["openai", "azure", "openai-compatible", "openai-responses", "anthropic", "gemini"];
const TEXT = "Order 7 left the warehouse on Monday and arrives on Thursday. ✓";

describe("issue #26 §2: every family streams on the wire, with the unstreamed turn's result", () => {
  for (const kind of KINDS) {
    test(`${kind}: the text arrives in pieces, and the result equals the unstreamed one`, async () => {
      const plain = await turnOf(kind, { text: TEXT }, false);
      const streamed = await turnOf(kind, { text: TEXT }, true);
      expect(streamed.deltas.length).toBeGreaterThan(0); // one per piece the network delivered (stream-reader.ts)
      expect(streamed.deltas.join("")).toBe(TEXT);
      expect(streamed.result.text).toBe(TEXT);
      expect(streamed.result.finish).toBe(plain.result.finish);
      expect(streamed.result.usage).toEqual(plain.result.usage);
      expect(streamed.result.response?.id).toBe(plain.result.response?.id);
      if (kind === "gemini") expect(streamed.path).toEndWith(":streamGenerateContent");
      else expect(streamed.body.stream).toBe(true);
      if (kind === "openai" || kind === "azure" || kind === "openai-compatible") expect(streamed.body.stream_options).toEqual({ include_usage: true });
    });

    test(`${kind}: tool calls (arguments in pieces) come out whole, with the assistant turn to replay`, async () => {
      const script: FakeTurn = { toolCalls: [{ name: "lookup_order", args: { id: 7 }, id: "call_a" }, { name: "lookup_order", args: { id: 8 }, id: "call_b" }] };
      const plain = await turnOf(kind, script, false);
      const streamed = await turnOf(kind, script, true);
      expect(streamed.result.toolCalls).toEqual(plain.result.toolCalls);
      expect(streamed.result.finish).toBe("tool_calls");
      expect(streamed.deltas).toEqual([]);
      expect(streamed.result.assistant).toEqual(plain.result.assistant);
    });
  }

  test("a stream that ends before the answer does is a provider error naming the cause, never a half answer", async () => {
    const model = modelOf("anthropic");
    const adapter = adapterFor(model);
    fake.script([{ rawBody: 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"usage":{"input_tokens":1,"output_tokens":0}}}\n\n', headers: { "content-type": "text/event-stream" } }]);
    const turn: TurnRequest = { transcript: [{ kind: "user", text: "hi" }], toolChoice: { type: "auto" }, onText: () => {} };
    await expect(requestTurn(client, model, adapter, turn, { turn: 0 })).rejects.toThrow("the stream ended before the answer did");
  });

  test("an error event in the stream is the provider's message", async () => {
    const model = modelOf("anthropic");
    const adapter = adapterFor(model);
    fake.script([{ rawBody: 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n', headers: { "content-type": "text/event-stream" } }]);
    const turn: TurnRequest = { transcript: [{ kind: "user", text: "hi" }], toolChoice: { type: "auto" }, onText: () => {} };
    await expect(requestTurn(client, model, adapter, turn, { turn: 0 })).rejects.toThrow("Overloaded");
  });
});

describe("issue #26 §2: the first text goes out at once, the rest one write per piece", () => {
  test("a body arriving as one piece of many events: its first text is handed on alone, the rest together", async () => {
    const model = modelOf("openai");
    const adapter = adapterFor(model);
    const words = ["First ", "words ", "then ", "the ", "rest ", "of ", "it."];
    const event = (delta: object) => `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
    const body = words.map((w) => event({ content: w })).join("") + `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`;
    fake.script([{ rawBody: body, headers: { "content-type": "text/event-stream" } }]);
    const deltas: string[] = [];
    const turn: TurnRequest = { transcript: [{ kind: "user", text: "hi" }], toolChoice: { type: "auto" }, onText: (d) => deltas.push(d) };
    await requestTurn(client, model, adapter, turn, { turn: 0 });
    // Not held back until the piece's other six events are decoded (time to first byte)…
    expect(deltas[0]).toBe("First ");
    // …and not one write per token after it: a ~1 KB loopback body comes in one or two pieces.
    expect(deltas.length).toBeLessThan(words.length);
    expect(deltas.join("")).toBe(words.join(""));
  });
});
