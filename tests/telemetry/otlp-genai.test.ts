/**
 * The `chat` and `execute_tool` spans against the OpenTelemetry GenAI semantic conventions
 * (docs/telemetry.md): what the answer says of itself (`gen_ai.response.id`, `.model`,
 * `.finish_reasons`), the request's settings, the server, every token count under the
 * conventions' names, the tool's description — and, opted in, the messages in the
 * conventions' JSON shape whatever the provider. Through dist/luma, a fake provider and a
 * local OTLP receiver that decodes with the official .proto.
 */
import { describe, expect, test } from "bun:test";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { runProgram } from "../providers/provider-servers";
import { startReceiver, type ReceivedSpan } from "./otlp-receiver";

const CAPTURE = { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" };
const TOOLS = `system: "Be careful."\n  tools: [text_stats, calculate]`;
const ASK = `ask "Call both tools exactly once, then return only valid JSON." -> FinalResult`;
const byStart = (spans: ReceivedSpan[]) => [...spans].sort((a, b) => Number(a.start - b.start));
const parsed = (s: ReceivedSpan, key: string) => JSON.parse(s.attributes[key] as string);

describe("§14 telemetry — GenAI conventions: response, request settings, server, tokens, messages", () => {
  test("Anthropic: response id/model/finish reason, cache read and cache creation tokens, temperature, max tokens, output type, server", async () => {
    const rx = startReceiver();
    const fake = await startFakeProvider();
    try {
      const body = {
        id: "msg_01abc",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5-20250929",
        content: [{ type: "text", text: JSON.stringify({ summary: "ok", score: 3 }) }],
        stop_reason: "end_turn",
        usage: { input_tokens: 10, cache_creation_input_tokens: 30, cache_read_input_tokens: 20, output_tokens: 7 },
      };
      fake.script([{ rawBody: JSON.stringify(body) }]);
      const r = await runProgram("anthropic", fake.baseUrl("anthropic"), { modelExtra: "temperature: 0.25  max_tokens: 300", env: { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url } });
      expect(r.exitCode).toBe(0);
      const [chat] = rx.spans.filter((s) => s.name === "chat claude-sonnet-4-5");
      const port = Number(new URL(fake.baseUrl("anthropic")).port);
      expect(chat.attributes).toMatchObject({
        "gen_ai.provider.name": "anthropic",
        "gen_ai.request.model": "claude-sonnet-4-5",
        "gen_ai.request.temperature": 0.25,
        "gen_ai.request.max_tokens": 300,
        "gen_ai.output.type": "json",
        "gen_ai.response.id": "msg_01abc",
        "gen_ai.response.model": "claude-sonnet-4-5-20250929",
        "gen_ai.response.finish_reasons": ["end_turn"],
        "gen_ai.usage.input_tokens": 60,
        "gen_ai.usage.output_tokens": 7,
        "gen_ai.usage.cache_read.input_tokens": 20,
        "gen_ai.usage.cache_creation.input_tokens": 30,
        "server.address": "127.0.0.1",
        "server.port": port,
      });
      expect(Object.keys(chat.attributes)).not.toContain("luma.usage.reasoning_tokens");
    } finally {
      rx.stop();
      fake.stop();
    }
  });

  test("Anthropic without a max_tokens key: the 4096 the API requires is sent and shown as gen_ai.request.max_tokens", async () => {
    const rx = startReceiver();
    const fake = await startFakeProvider();
    try {
      fake.script([{ json: { summary: "ok", score: 3 } }]);
      const r = await runProgram("anthropic", fake.baseUrl("anthropic"), { env: { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url } });
      expect(r.exitCode).toBe(0);
      expect((fake.requests[0].body as { max_tokens?: number }).max_tokens).toBe(4096);
      const [chat] = rx.spans.filter((s) => s.name === "chat claude-sonnet-4-5");
      expect(chat.attributes["gen_ai.request.max_tokens"]).toBe(4096);
    } finally {
      rx.stop();
      fake.stop();
    }
  });

  test("OpenAI Responses: reasoning tokens as gen_ai.usage.reasoning.output_tokens; tool description; opted-in messages in the conventions' shape, not the Responses API's input items", async () => {
    const rx = startReceiver();
    const fake = await startFakeProvider();
    try {
      fake.script([
        { toolCalls: [{ name: "text_stats", args: { text: "Luma DSL" }, id: "call_t" }, { name: "calculate", args: { a: 20, b: 22, operation: "add" }, id: "call_c" }] },
        { json: { words: 2, sum: 42 } },
      ]);
      const r = await runProgram("openai-responses", fake.baseUrl("openai-responses"), { agentBody: TOOLS, ask: ASK, env: { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, ...CAPTURE } });
      expect(r.exitCode).toBe(0);
      const [first, second] = byStart(rx.spans.filter((s) => s.name === "chat gpt-5.4-mini"));
      expect(first.attributes).toMatchObject({ "gen_ai.response.id": "resp_1", "gen_ai.response.model": "gpt-5.4-mini", "gen_ai.usage.reasoning.output_tokens": 1 });
      // Per request: the tool turn asked for no format, the final one for the answer's JSON schema.
      expect([first.attributes["gen_ai.output.type"], second.attributes["gen_ai.output.type"]]).toEqual(["text", "json"]);
      expect(parsed(first, "gen_ai.system_instructions")).toEqual([{ type: "text", content: "Be careful." }]);
      expect(parsed(first, "gen_ai.input.messages")).toEqual([{ role: "user", parts: [{ type: "text", content: "Call both tools exactly once, then return only valid JSON." }] }]);
      expect(parsed(first, "gen_ai.output.messages")).toEqual([
        {
          role: "assistant",
          parts: [
            { type: "tool_call", id: "call_t", name: "text_stats", arguments: { text: "Luma DSL" } },
            { type: "tool_call", id: "call_c", name: "calculate", arguments: { a: 20, b: 22, operation: "add" } },
          ],
          finish_reason: "completed",
        },
      ]);
      // The second request's history: the user turn, the assistant's calls, one tool message per result.
      expect(parsed(second, "gen_ai.input.messages")).toEqual([
        { role: "user", parts: [{ type: "text", content: "Call both tools exactly once, then return only valid JSON." }] },
        {
          role: "assistant",
          parts: [
            { type: "tool_call", id: "call_t", name: "text_stats", arguments: { text: "Luma DSL" } },
            { type: "tool_call", id: "call_c", name: "calculate", arguments: { a: 20, b: 22, operation: "add" } },
          ],
        },
        { role: "tool", parts: [{ type: "tool_call_response", id: "call_t", response: { characters: 8, words: 2 } }] },
        { role: "tool", parts: [{ type: "tool_call_response", id: "call_c", response: { result: 42 } }] },
      ]);
      expect(parsed(second, "gen_ai.output.messages")).toEqual([{ role: "assistant", parts: [{ type: "text", content: '{"words":2,"sum":42}' }], finish_reason: "completed" }]);
      // No provider wire shape leaks into the messages (Responses API items, reasoning blobs).
      expect(second.attributes["gen_ai.input.messages"]).not.toContain("function_call_output");
      expect(second.attributes["gen_ai.input.messages"]).not.toContain("enc-1");
      const [calc] = rx.spans.filter((s) => s.name === "execute_tool calculate");
      expect(calc.attributes["gen_ai.tool.description"]).toBe("Adds or multiplies two numbers");
      const [stats] = rx.spans.filter((s) => s.name === "execute_tool text_stats");
      expect(stats.attributes["gen_ai.tool.description"]).toBeUndefined();
    } finally {
      rx.stop();
      fake.stop();
    }
  });

  test("Gemini and Chat Completions: the response's id, model version and the provider's own finish reason", async () => {
    const rx = startReceiver();
    const fake = await startFakeProvider();
    try {
      fake.script([{ json: { summary: "ok", score: 3 } }]);
      const g = await runProgram("gemini", fake.baseUrl("gemini"), { env: { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url } });
      expect(g.exitCode).toBe(0);
      fake.script([{ json: { summary: "ok", score: 3 } }]);
      const o = await runProgram("openai", fake.baseUrl("openai"), { env: { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url } });
      expect(o.exitCode).toBe(0);
      const [gem] = rx.spans.filter((s) => s.name === "chat gemini-3-flash");
      expect(gem.attributes).toMatchObject({ "gen_ai.response.finish_reasons": ["STOP"], "gen_ai.provider.name": "gcp.gemini", "gen_ai.response.model": "gemini-3-flash", "gen_ai.response.id": "r1" });
      const [oai] = rx.spans.filter((s) => s.name === "chat gpt-5.4-mini");
      expect(oai.attributes).toMatchObject({ "gen_ai.response.finish_reasons": ["stop"], "gen_ai.response.model": "gpt-5.4-mini", "gen_ai.output.type": "json" });
      expect(String(oai.attributes["gen_ai.response.id"])).toStartWith("chatcmpl-");
    } finally {
      rx.stop();
      fake.stop();
    }
  });
});
