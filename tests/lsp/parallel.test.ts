/**
 * `luma lsp` and `parallel` (issue #27 §4): hover on the keyword says what it does (and a
 * `parallel for`'s type), a name assigned in a branch goes to that branch's assignment from
 * after the block, the loop variable of a `parallel for` goes to its binding, and completion
 * offers the contextual keyword.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;
const URI = "file:///work/fanout.luma";

const PROGRAM = `fn f(x: int) -> int { x }
docs = [1, 2, 3]
results = parallel for doc in docs limit 2 {
  f(doc)
}
parallel {
  left = f(1)
  right = f(2)
}
print(results, left, right)
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

describe("parallel in the editor", () => {
  test("the program is clean; hover on `parallel` explains it and gives a parallel for's type", async () => {
    expect((await lsp.diagnostics(URI)).diagnostics).toEqual([]);
    const h: any = await lsp.conn.sendRequest("textDocument/hover", at("parallel for", 0, 2));
    expect(h.contents.value).toContain("int[]");
    expect(h.contents.value).toContain("at most N at once");
    const s: any = await lsp.conn.sendRequest("textDocument/hover", at("parallel {", 0, 2));
    expect(s.contents.value).toContain("each statement runs at once");
  }, LIMIT_MS);

  test("definitions across branches and of the loop variable", async () => {
    const left: any = await lsp.conn.sendRequest("textDocument/definition", at("left, right)"));
    expect(left?.range.start).toEqual(positionOf(PROGRAM, "left = f"));
    const doc: any = await lsp.conn.sendRequest("textDocument/definition", at("doc)"));
    expect(doc?.range.start).toEqual(positionOf(PROGRAM, "doc in"));
  }, LIMIT_MS);

  test("completion offers `parallel`", async () => {
    const uri = "file:///work/fanout2.luma";
    const text = "xs = [1]\npar";
    await lsp.open(uri, text);
    const r: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, "par", 0, 3) });
    expect(r.items.map((i: any) => i.label)).toContain("parallel");
  }, LIMIT_MS);
});
