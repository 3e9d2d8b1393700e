/**
 * OpenTelemetry export from a long-lived process (`luma mcp`, docs/telemetry.md): each
 * `tools/call` is a trace of its own, and its spans reach the collector while the server is
 * still serving — not at exit. Spans are decoded with the official .proto (otlp-receiver.ts).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { connectLuma, SERVED, SERVED_TOOLS, until } from "../mcp/mcp-harness";
import { startReceiver } from "./otlp-receiver";

// A real server starts here (bun, the SDK): a loaded machine needs more than 5 s.
setDefaultTimeout(30_000);

describe("§14 telemetry — luma mcp: one trace per request, exported while serving", () => {
  test("two tools/call are two traces, each sent before the server stops; a method's invoke_agent span is its call's root", async () => {
    const rx = startReceiver();
    const s = await connectLuma([SERVED, "--tool-module", SERVED_TOOLS], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url } });
    try {
      await s.client.callTool({ name: "calculate", arguments: { a: 2, b: 3, operation: "add" } });
      // The server keeps running: the span must arrive anyway (the batch delay, 1 s by default).
      await until(() => rx.spans.length >= 1);
      await s.client.callTool({ name: "calculate", arguments: { a: 4, b: 5, operation: "multiply" } });
      await until(() => rx.spans.length >= 2);
      await s.client.callTool({ name: "ReadOnly.summarize", arguments: { text: "hi" } });
      await until(() => rx.spans.length >= 4);
      const [first, second] = rx.spans;
      expect([first.name, second.name]).toEqual(["execute_tool calculate", "execute_tool calculate"]);
      expect(first.parentSpanId).toBe("");
      expect(second.parentSpanId).toBe("");
      expect(first.traceId).not.toBe(second.traceId);
      const agent = rx.spans.find((x) => x.name === "invoke_agent ReadOnly")!;
      const inner = rx.spans.slice(2).find((x) => x.name === "execute_tool calculate")!;
      expect(agent.parentSpanId).toBe("");
      expect(inner.parentSpanId).toBe(agent.spanId);
      expect(inner.traceId).toBe(agent.traceId);
      expect(new Set([first.traceId, second.traceId, agent.traceId]).size).toBe(3);
    } finally {
      await s.close();
      rx.stop();
    }
  });
});
