import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, REPO } from "../support/luma-binary";
import { startReceiver, type ReceivedSpan } from "./otlp-receiver";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { runProgram } from "../providers/provider-servers";

const EXAMPLE = "examples/041_multi_tool_worker.luma";
const CASSETTE = "examples/cassettes/041_multi_tool_worker.jsonl";

async function luma(args: string[], env: Record<string, string>, cwd = REPO) {
  const p = Bun.spawn([ensureBinary(), ...args], {
    cwd,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, exitCode };
}

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);

describe("§14 telemetry — OpenTelemetry export (OTLP/HTTP, GenAI semantic conventions)", () => {
  test("http/protobuf (default): invoke_agent → chat and execute_tool children, one trace, GenAI attributes, decoded with the official .proto", async () => {
    const rx = startReceiver();
    try {
      const r = await luma([EXAMPLE, "--replay", CASSETTE], { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_EXPORTER_OTLP_HEADERS: "x-tenant=acme,authorization=Bearer%20otel-secret-token" });
      expect(r.exitCode).toBe(0);
      expect(rx.requests[0].contentType).toBe("application/x-protobuf");
      expect(rx.requests[0].headers["x-tenant"]).toBe("acme");
      expect(rx.requests[0].headers.authorization).toBe("Bearer otel-secret-token");
      expect(rx.requests[0].resource["service.name"]).toBe("luma");
      expect(rx.spans.map((s) => s.name).sort()).toEqual(["chat gpt-5.4-mini", "chat gpt-5.4-mini", "execute_tool calculate", "execute_tool text_stats", "invoke_agent MultiToolWorker"]);
      const [agent] = byName(rx.spans, "invoke_agent MultiToolWorker");
      expect(agent.parentSpanId).toBe("");
      expect(agent.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "MultiToolWorker", "luma.method": "run" });
      for (const s of rx.spans) {
        expect(s.traceId).toBe(agent.traceId);
        if (s !== agent) expect(s.parentSpanId).toBe(agent.spanId);
        expect(s.end >= s.start).toBe(true);
        expect(s.start >= agent.start && s.end <= agent.end).toBe(true);
      }
      const chats = byName(rx.spans, "chat gpt-5.4-mini");
      expect(chats[0].kind).toBe(3); // CLIENT
      expect(chats[0].attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-5.4-mini",
        "gen_ai.usage.input_tokens": 60,
        "gen_ai.usage.output_tokens": 8,
        "luma.model": "GPT54Mini",
      });
      const [calc] = byName(rx.spans, "execute_tool calculate");
      expect(calc.attributes).toMatchObject({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "calculate",
        "gen_ai.tool.call.id": "call_1_1",
        "luma.tool.mode": "native",
        "luma.tool.side_effects": "none",
        "luma.attempts": 1,
        "luma.cache_hit": false,
        "luma.idempotent_replay": false,
      });
      // Not opted in: no prompt, no arguments, no results; the header token is never in a span.
      for (const s of rx.spans) for (const k of Object.keys(s.attributes)) expect(k).not.toMatch(/messages|arguments|result|instructions/);
      expect(rx.raw.join("")).not.toContain("Luma DSL");
      expect(rx.raw.join("")).not.toContain("otel-secret-token");
    } finally {
      rx.stop();
    }
  });

  test("http/json with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given; content only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true", async () => {
    const rx = startReceiver();
    try {
      const r = await luma([EXAMPLE, "--replay", CASSETTE], {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${rx.url}/custom/path`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
        OTEL_SERVICE_NAME: "billing-agent",
      });
      expect(r.exitCode).toBe(0);
      expect(rx.requests[0].contentType).toBe("application/json");
      expect(rx.requests[0].resource["service.name"]).toBe("billing-agent");
      const [stats] = byName(rx.spans, "execute_tool text_stats");
      expect(JSON.parse(stats.attributes["gen_ai.tool.call.arguments"] as string)).toEqual({ text: "Luma DSL" });
      expect(JSON.parse(stats.attributes["gen_ai.tool.call.result"] as string)).toEqual({ characters: 8, words: 2 });
      const [first] = byName(rx.spans, "chat gpt-5.4-mini");
      expect(first.attributes["gen_ai.input.messages"]).toContain("Luma DSL");
      const agent = byName(rx.spans, "invoke_agent MultiToolWorker")[0];
      expect(rx.spans.filter((s) => s !== agent).every((s) => s.parentSpanId === agent.spanId)).toBe(true);
    } finally {
      rx.stop();
    }
  });

  test("spans are flushed before exit when the run fails: the failed tool and agent carry error.type; direct calls are execute_tool spans too", async () => {
    const rx = startReceiver();
    const dir = mkdtempSync(join(tmpdir(), "luma-otel-"));
    writeFileSync(
      join(dir, "main.luma"),
      `schema CalcResult { result: float }
tool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {}
agent A {
  tools: [calculate]
  fn run() -> any {
    op: any = "divide"
    tool calculate({ a: 1, b: 2, operation: op })
  }
}
print(A.run())
`,
    );
    try {
      const r = await luma(["main.luma"], { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url }, dir);
      expect(r.exitCode).toBe(1);
      const [tool] = byName(rx.spans, "execute_tool calculate");
      const [agent] = byName(rx.spans, "invoke_agent A");
      expect(tool.attributes).toMatchObject({ "error.type": "TOOL_INPUT_INVALID", "luma.tool.mode": "direct" });
      expect(tool.status).toBe(2);
      expect(tool.parentSpanId).toBe(agent.spanId);
      expect(agent.attributes["error.type"]).toBe("TOOL_INPUT_INVALID");
      expect(agent.status).toBe(2);
    } finally {
      rx.stop();
    }
  });

  test("a collector that refuses the export costs one warning naming the endpoint (no header value), never the run's result", async () => {
    const rx = startReceiver(503);
    try {
      const r = await luma([EXAMPLE, "--replay", CASSETTE], { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_EXPORTER_OTLP_HEADERS: "api-key=collector-secret" });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain("words: 2, sum: 42");
      expect(r.stderr).toContain(`warning: could not export spans to ${rx.url}/v1/traces: HTTP 503`);
      expect(r.stderr).not.toContain("collector-secret");
    } finally {
      rx.stop();
    }
    const down = await luma([EXAMPLE, "--replay", CASSETTE], { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(down.exitCode).toBe(0);
    expect(down.stderr).toContain("warning: could not export spans to http://127.0.0.1:9/v1/traces:");
  });

  test("secrets never: with content capture on, the API key (and a key echoed in a provider error) is in no span", async () => {
    const rx = startReceiver();
    const fake = await startFakeProvider();
    try {
      fake.script([{ status: 400, message: "bad request for key sk-test-openai" }]);
      const r = await runProgram("openai", fake.baseUrl("openai"), {
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" },
      });
      expect(r.exitCode).toBe(1);
      const [chat] = byName(rx.spans, "chat gpt-5.4-mini");
      expect(chat.attributes).toMatchObject({ "error.type": "400", "http.response.status_code": 400 });
      expect(chat.status).toBe(2);
      expect(rx.raw.join("")).not.toContain("sk-test-openai");
    } finally {
      rx.stop();
      fake.stop();
    }
  });

  test("one chat span per HTTP try: a 429 then a 200 are two spans, attempts 1 and 2, the first with error.type 429", async () => {
    const rx = startReceiver();
    const fake = await startFakeProvider();
    try {
      fake.script([{ status: 429, headers: { "retry-after-ms": "1" } }, { json: { summary: "ok", score: 3 } }]);
      const r = await runProgram("anthropic", fake.baseUrl("anthropic"), { env: { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url } });
      expect(r.exitCode).toBe(0);
      const chats = byName(rx.spans, "chat claude-sonnet-4-5").sort((a, b) => Number(a.start - b.start));
      expect(chats.map((c) => [c.attributes["luma.attempt"], c.attributes["error.type"] ?? null, c.attributes["gen_ai.provider.name"]])).toEqual([
        [1, "429", "anthropic"],
        [2, null, "anthropic"],
      ]);
    } finally {
      rx.stop();
      fake.stop();
    }
  });
});
