/**
 * Issue #25 §4 in the editor and the formatter: `handler` and `approval` are rows of the tool
 * key table, so `luma lsp` completes them in a tool block with their doc lines and hover
 * shows them, and `luma fmt` keeps them (a bare schema name for `approval` included) through
 * a round trip that changes nothing a second time.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { formatSource } from "../../src/format/format-source";
import { TOOL_KEYS } from "../../src/language/keys/tool-keys";
import { positionOf, startLsp, type LspSession } from "../lsp/lsp-client";

const PROGRAM = `schema Confirmed { ok: bool }
schema Note { reason: string }
tool confirm(text: string) -> Confirmed {
  handler: "client"
}
tool refund(order: string) -> Confirmed {
  side_effects: "write"
  approval: Note
}
`;

describe("handler and approval in the editor (luma lsp)", () => {
  let lsp: LspSession;
  beforeAll(async () => {
    lsp = await startLsp();
  });
  afterAll(async () => {
    if (lsp) await lsp.close().catch(() => {});
  });

  test("completion in a tool block offers both keys, with their doc lines", async () => {
    const text = PROGRAM.replace('  handler: "client"\n', "  ha\n");
    const uri = "file:///work/client-keys.luma";
    await lsp.open(uri, text);
    const r: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, "  ha\n", 0, 4) });
    const labels = r.items.map((i: any) => i.label);
    expect(labels).toContain("handler");
    expect(labels).toContain("approval");
    expect(r.items.find((i: any) => i.label === "handler").documentation).toBe(`\`handler\`: ${TOOL_KEYS.handler.doc}`);
    expect(r.items.find((i: any) => i.label === "approval").documentation).toBe(`\`approval\` (default false): ${TOOL_KEYS.approval.doc}`);
  }, 60_000);

  test("hover on the key shows its doc line", async () => {
    const uri = "file:///work/client-hover.luma";
    await lsp.open(uri, PROGRAM);
    const h: any = await lsp.conn.sendRequest("textDocument/hover", { textDocument: { uri }, position: positionOf(PROGRAM, "approval: Note", 0, 2) });
    expect(h.contents.value).toBe(`\`approval\` (default false): ${TOOL_KEYS.approval.doc}`);
  }, 60_000);
});

describe("luma fmt keeps handler and approval", () => {
  test("a one-line block is laid out one key a line, and formatting again changes nothing", () => {
    const once = formatSource(`schema Confirmed { ok: bool }\nschema Note { reason: string }\ntool refund(order: string) -> Confirmed { approval: Note  handler: "client" }\n`, "t.luma");
    expect(once.diagnostics).toBeUndefined();
    expect(once.text).toContain('tool refund(order: string) -> Confirmed {\n  approval: Note\n  handler: "client"\n}\n');
    expect(formatSource(once.text!, "t.luma").text).toBe(once.text);
    expect(formatSource(PROGRAM, "t.luma").text).toBe(PROGRAM.replace("schema Confirmed { ok: bool }", "schema Confirmed {\n  ok: bool\n}").replace("schema Note { reason: string }", "schema Note {\n  reason: string\n}"));
  });
});
