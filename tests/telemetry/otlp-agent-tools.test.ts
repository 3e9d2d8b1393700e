/**
 * Issue #27 §1/§3 — spans of an agent called as a tool: the model's call of `Refunds_handle`
 * is an `execute_tool Refunds_handle` span under the calling agent's `invoke_agent`, the
 * sub-agent's method call is an `invoke_agent Refunds` span under that tool span, and the
 * sub-agent's own requests and tool calls are children of its span. Through `dist/luma`, the
 * recorded cassette of example 100, and a real OTLP/HTTP receiver.
 */
import { expect, test } from "bun:test";
import { ensureBinary, REPO } from "../support/luma-binary";
import { startReceiver, type ReceivedSpan } from "./otlp-receiver";

test("execute_tool Refunds_handle is the parent of invoke_agent Refunds, whose requests and tools are its children", async () => {
  const rx = startReceiver();
  try {
    const p = Bun.spawn(
      [ensureBinary(), "examples/100_agents_as_tools.luma", "--tool-module", "examples/tools/refund-tools.ts", "--replay", "examples/cassettes/100_agents_as_tools.jsonl"],
      { cwd: REPO, env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", OTEL_EXPORTER_OTLP_ENDPOINT: rx.url }, stdout: "pipe", stderr: "pipe" },
    );
    const [stderr, exitCode] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    expect(stderr).toBe("");
    expect(exitCode).toBe(0);
    const one = (name: string): ReceivedSpan => {
      const found = rx.spans.filter((s) => s.name === name);
      expect(found.length).toBe(1);
      return found[0];
    };
    const triage = one("invoke_agent Triage");
    const tool = one("execute_tool Refunds_handle");
    const refunds = one("invoke_agent Refunds");
    expect(triage.parentSpanId).toBe("");
    expect(tool.parentSpanId).toBe(triage.spanId);
    expect(tool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "Refunds_handle", "gen_ai.agent.name": "Triage", "luma.tool.mode": "native" });
    expect(String(tool.attributes["gen_ai.tool.call.id"])).not.toBe("");
    expect(refunds.parentSpanId).toBe(tool.spanId);
    expect(refunds.start >= tool.start && refunds.end <= tool.end).toBe(true);
    // The sub-agent's two tool calls and its two requests are its children; Triage's two requests are Triage's.
    const children = (parent: ReceivedSpan) => rx.spans.filter((s) => s.parentSpanId === parent.spanId).map((s) => s.name).sort();
    expect(children(refunds)).toEqual(["chat gpt-5.4-mini", "chat gpt-5.4-mini", "chat gpt-5.4-mini", "execute_tool issue_refund", "execute_tool lookup_order"]);
    expect(children(triage)).toEqual(["chat gpt-5.4-mini", "chat gpt-5.4-mini", "execute_tool Refunds_handle"]);
  } finally {
    rx.stop();
  }
}, 60_000);
