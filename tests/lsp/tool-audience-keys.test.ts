/**
 * Issue #25's tool keys in the editor (`luma lsp`): completion in a tool block offers
 * `audience`, `instructions`, `max_result_chars` and `metadata` with their doc lines (from the
 * key table), hover shows the doc line and default, and the check rules (E0270, E0271, E0273)
 * are published with their codes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TOOL_KEYS } from "../../src/language/keys/tool-keys";
import { keyDocText } from "../../src/language/keys/key-spec";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;
const PROGRAM = `schema Out { ok: bool }
tool lookup(id: string) -> Out {
  audience: "model"
  instructions: "Look it up first."
  max_result_chars: 500
  metadata: {
    owner: team
  }
}
tool audit(id: string) -> Out {
  audience: "code"
  instructions: "Never shown."
}
print(tool lookup({ id: "1" }))
`;

describe("luma lsp: the tool keys of issue #25", () => {
  let lsp: LspSession;
  beforeAll(async () => void (lsp = await startLsp()));
  afterAll(async () => {
    if (lsp) await lsp.close().catch(() => {});
  });

  test("completion in a tool block offers the four keys, each with its doc line", async () => {
    const text = PROGRAM.replace('  audience: "code"\n', "  au\n");
    const uri = "file:///work/audience-complete.luma";
    await lsp.open(uri, text);
    const r: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, "  au\n", 0, 4) });
    const labels = r.items.map((i: any) => i.label);
    for (const key of ["audience", "instructions", "max_result_chars", "metadata"] as const) {
      expect(labels).toContain(key);
      expect(r.items.find((i: any) => i.label === key).documentation).toBe(keyDocText(key, TOOL_KEYS[key]));
    }
    expect(keyDocText("audience", TOOL_KEYS.audience)).toStartWith('`audience` (default "both"): Who may call it');
  }, LIMIT_MS);

  test("hover on a key shows its doc line and default", async () => {
    const uri = "file:///work/audience-hover.luma";
    await lsp.open(uri, PROGRAM);
    const h: any = await lsp.conn.sendRequest("textDocument/hover", { textDocument: { uri }, position: positionOf(PROGRAM, "max_result_chars: 500", 0, 2) });
    expect(h.contents.value).toBe(keyDocText("max_result_chars", TOOL_KEYS.max_result_chars));
  }, LIMIT_MS);

  test("E0270, E0271 and the E0273 warning are published with their codes and places", async () => {
    const { diagnostics } = await lsp.open("file:///work/audience-check.luma", PROGRAM);
    const byCode = Object.fromEntries(diagnostics.map((d) => [d.code, d]));
    expect(Object.keys(byCode).sort()).toEqual(["E0270", "E0271", "E0273"]);
    expect(byCode.E0270.range.start).toEqual({ line: 6, character: 11 });
    expect(byCode.E0271.range.start).toEqual({ line: 13, character: 11 });
    expect(byCode.E0273.severity).toBe(2);
  }, LIMIT_MS);
});
