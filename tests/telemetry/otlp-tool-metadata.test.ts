/**
 * Issue #25 §5: a tool's `metadata` on its `execute_tool` span, one `luma.tool.metadata.<key>`
 * attribute per top-level key (the GenAI conventions have none for it): strings, numbers,
 * bools and string lists as they are, anything else as JSON text. The model's side never
 * carries it — not the request, not the captured messages. Through dist/luma, the fake
 * provider and a local OTLP receiver.
 */
import { expect, test } from "bun:test";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { runProgram } from "../providers/provider-servers";
import { startReceiver } from "./otlp-receiver";

const DECLS = `
schema Doc { text: string }
tool read_doc(id: string) -> Doc {
  metadata: { owner: "docs-team-51b0", tier: 2, pii: false, tags: ["read", "docs"], limits: { daily: 100 } }
}
`;
const MODULE = `export const lumaTools = { read_doc: ({ id }: { id: string }) => ({ text: "doc " + id }) };\n`;

test("execute_tool spans carry luma.tool.metadata.<key>; chat spans and requests never carry the metadata", async () => {
  const rx = startReceiver();
  const fake = await startFakeProvider();
  try {
    fake.script([{ toolCalls: [{ name: "read_doc", args: { id: "7" }, id: "call_r" }] }, { json: { words: 1, sum: 1 } }]);
    const r = await runProgram("openai", fake.baseUrl("openai"), {
      agentBody: "tools: [read_doc]",
      ask: `ask "Read doc 7." -> FinalResult`,
      decls: DECLS,
      toolModule: MODULE,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: rx.url, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" },
    });
    expect(r.exitCode).toBe(0);
    const [tool] = rx.spans.filter((s) => s.name === "execute_tool read_doc");
    expect(tool.attributes).toMatchObject({
      "luma.tool.metadata.owner": "docs-team-51b0",
      "luma.tool.metadata.tier": 2,
      "luma.tool.metadata.pii": false,
      "luma.tool.metadata.tags": ["read", "docs"],
      "luma.tool.metadata.limits": '{"daily":100}',
    });
    for (const chat of rx.spans.filter((s) => s.name.startsWith("chat "))) expect(JSON.stringify(chat.attributes)).not.toContain("docs-team-51b0");
    for (const req of fake.requests) expect(JSON.stringify(req.body)).not.toContain("docs-team-51b0");
  } finally {
    rx.stop();
    fake.stop();
  }
});
