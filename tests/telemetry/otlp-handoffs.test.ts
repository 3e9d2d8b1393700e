/**
 * Issue #27 §2 — a handoff's span: the model's call of `transfer_to_Refunds` is an
 * `execute_tool transfer_to_Refunds` span, as any tool call is, under the starting agent's
 * `invoke_agent Triage`; it names the transferring agent (`gen_ai.agent.name`), the model's
 * call (`gen_ai.tool.call.id`) and the agent handed to (`luma.handoff.target`). The requests
 * Refunds makes after it stay in the same ask, under the same `invoke_agent Triage`. Through
 * `dist/luma`, the recorded cassette of example 102, and a real OTLP/HTTP receiver.
 */
import { expect, test } from "bun:test";
import { ensureBinary, REPO } from "../support/luma-binary";
import { startReceiver } from "./otlp-receiver";

test("a transfer is an execute_tool transfer_to_Refunds span naming the agent handed to", async () => {
  const rx = startReceiver();
  try {
    const p = Bun.spawn(
      [ensureBinary(), "examples/102_handoffs.luma", "--tool-module", "examples/tools/refund-tools.ts", "--replay", "examples/cassettes/102_handoffs.jsonl"],
      { cwd: REPO, env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", OTEL_EXPORTER_OTLP_ENDPOINT: rx.url }, stdout: "pipe", stderr: "pipe" },
    );
    const [stderr, exitCode] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    expect(stderr).toBe("");
    expect(exitCode).toBe(0);
    const triage = rx.spans.filter((s) => s.name === "invoke_agent Triage");
    const transfers = rx.spans.filter((s) => s.name === "execute_tool transfer_to_Refunds");
    expect(triage.length).toBe(1);
    expect(transfers.length).toBe(1);
    const transfer = transfers[0];
    expect(transfer.parentSpanId).toBe(triage[0].spanId);
    expect(transfer.traceId).toBe(triage[0].traceId);
    expect(transfer.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "transfer_to_Refunds",
      "gen_ai.tool.type": "function",
      "gen_ai.agent.name": "Triage",
      "luma.handoff.target": "Refunds",
      "luma.handoffs": 1,
      "luma.max_handoffs": 1,
    });
    expect(String(transfer.attributes["gen_ai.tool.call.id"])).not.toBe("");
    // The transfer comes after Triage's requests and before those Refunds makes for the same ask.
    const chats = rx.spans.filter((s) => s.parentSpanId === triage[0].spanId && s.name.startsWith("chat "));
    const byAgent = (agent: string) => chats.filter((s) => s.attributes["gen_ai.agent.name"] === agent);
    expect(byAgent("Triage").length).toBeGreaterThan(0);
    expect(byAgent("Refunds").length).toBeGreaterThan(0);
    for (const s of byAgent("Triage")) expect(s.end <= transfer.end).toBe(true);
    for (const s of byAgent("Refunds")) expect(s.start >= transfer.end).toBe(true);
  } finally {
    rx.stop();
  }
}, 60_000);
