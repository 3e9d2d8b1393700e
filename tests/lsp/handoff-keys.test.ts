/**
 * Issue #27 §2's agent keys in the editor (`luma lsp`): completion in an agent block offers
 * `handoffs` and `max_handoffs` with their doc lines (from the key table), definition on a
 * name in `handoffs` goes to the agent, and the handoff rules (E1104, E1105) are published
 * with their codes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AGENT_KEYS } from "../../src/language/keys/agent-keys";
import { keyDocText } from "../../src/language/keys/key-spec";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;
const PROGRAM = `model M { provider: "openai"  name: "gpt-5.4-mini" }
agent Refunds {
  model: M
}
agent Triage {
  model: M
  handoffs: [Refunds]
  max_handoffs: 2
}
`;

describe("luma lsp: the handoff keys of issue #27", () => {
  let lsp: LspSession;
  beforeAll(async () => void (lsp = await startLsp()));
  afterAll(async () => {
    if (lsp) await lsp.close().catch(() => {});
  });

  test("completion in an agent block offers handoffs and max_handoffs, each with its doc line", async () => {
    const text = PROGRAM.replace("  max_handoffs: 2\n", "  ha\n");
    const uri = "file:///work/handoffs-complete.luma";
    await lsp.open(uri, text);
    const r: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, "  ha\n", 0, 4) });
    for (const key of ["handoffs", "max_handoffs"] as const) {
      expect(r.items.find((i: any) => i.label === key)?.documentation).toBe(keyDocText(key, AGENT_KEYS[key]));
    }
  }, LIMIT_MS);

  test("definition on a name in handoffs goes to the agent", async () => {
    const uri = "file:///work/handoffs-definition.luma";
    await lsp.open(uri, PROGRAM);
    const d: any = await lsp.conn.sendRequest("textDocument/definition", { textDocument: { uri }, position: positionOf(PROGRAM, "[Refunds]", 0, 2) });
    const at = Array.isArray(d) ? d[0] : d;
    expect(at.range.start.line).toBe(1);
  }, LIMIT_MS);

  test("E1104 and E1105 are published with their codes", async () => {
    const text = PROGRAM.replace("handoffs: [Refunds]", "handoffs: [Refundz, Triage]");
    const { diagnostics } = await lsp.open("file:///work/handoffs-check.luma", text);
    expect(diagnostics.map((d: any) => d.code).sort()).toEqual(["E1104", "E1105"]);
  }, LIMIT_MS);
});
