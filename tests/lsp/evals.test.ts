/**
 * `luma lsp` and `luma eval` (issue #31 §2): an eval file is clean in the editor, `case`
 * and `score` hover with what they are, completion inside an eval block offers them (and an
 * `eval` snippet at the top level), and the checker's eval rules show as diagnostics.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;
const URI = "file:///work/triage.eval.luma";

const PROGRAM = `fn route(text: string) -> string { text }
eval "routes" over "cases.jsonl" {
  out = route(case.input)
  score "route" out == case.expected
}
`;

let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp();
  await lsp.open(URI, PROGRAM);
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
});

const at = (needle: string, nth = 0, delta = 0) => ({ textDocument: { uri: URI }, position: positionOf(PROGRAM, needle, nth, delta) });

describe("eval files in the editor", () => {
  test("the file is clean; hover on `case` and on `score` says what they are", async () => {
    expect((await lsp.diagnostics(URI)).diagnostics).toEqual([]);
    const c: any = await lsp.conn.sendRequest("textDocument/hover", at("case.input", 0, 1));
    expect(c.contents.value).toContain("the dataset line this run of the eval is for");
    const s: any = await lsp.conn.sendRequest("textDocument/hover", at("score", 0, 2));
    expect(s.contents.value).toContain("records a bool");
  }, LIMIT_MS);

  test("completion offers `case` and `score` inside an eval block, the `eval` snippet at the top", async () => {
    const uri = "file:///work/c.eval.luma";
    const text = `eval "e" over "d.jsonl" {\n  x = ca\n}\n`;
    await lsp.open(uri, text);
    const inside: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, "ca\n", 0, 2) });
    const labels = inside.items.map((i: any) => i.label);
    expect(labels).toContain("case");
    expect(labels).toContain("score");
    const uri2 = "file:///work/d.eval.luma";
    const top = "ev";
    await lsp.open(uri2, top);
    const outside: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri: uri2 }, position: positionOf(top, "ev", 0, 2) });
    expect(outside.items.find((i: any) => i.label === "eval")?.insertText).toContain("over");
    expect(outside.items.map((i: any) => i.label)).not.toContain("case");
  }, LIMIT_MS);

  test("an eval outside *.eval.luma is E1401 in the editor too", async () => {
    const uri = "file:///work/plain.luma";
    await lsp.open(uri, `eval "e" over "d.jsonl" {\n  score "s" true\n}\n`);
    const d = (await lsp.diagnostics(uri)).diagnostics;
    expect(d.map((x: any) => x.code)).toEqual(["E1401"]);
  }, LIMIT_MS);
});
