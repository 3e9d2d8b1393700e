/**
 * `luma lsp` and the standard library (issue #28 §2), through the real binary: completion
 * offers the new builtins with their doc line (from the builtins table), a hover on a
 * builtin's name shows its call's type and doc, and a lambda's parameter is a name of its
 * own — hover gives an item's type, definition and references stay inside the lambda.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;
const URI = "file:///work/stdlib.luma";

const PROGRAM = `schema Order { id: string, total: float }

fn report(orders: Order[], o: int) -> any {
  ids = map(orders, (o) => o.id)
  big = filter(orders, (x) => x.total > o)
  return sort(ids)
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
const hoverText = async (needle: string, nth = 0, delta = 0): Promise<string> => {
  const h: any = await lsp.conn.sendRequest("textDocument/hover", at(needle, nth, delta));
  return h?.contents?.value ?? "";
};

describe("luma lsp: the standard library", () => {
  test("completion offers the new builtins with their doc line", async () => {
    const text = PROGRAM.replace("return sort(ids)", "return so");
    const uri = "file:///work/stdlib-c.luma";
    await lsp.open(uri, text);
    const r = (await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, "return so", 0, 9) })) as any;
    const byLabel = new Map<string, any>(r.items.map((i: any) => [i.label, i]));
    for (const name of ["sort", "sort_by", "map", "json_parse", "regex_match", "format_time", "read_line", "sleep"]) expect(byLabel.has(name)).toBe(true);
    expect(byLabel.get("sort_by").documentation).toContain("ordered by the lambda's value");
  }, LIMIT_MS);

  test("a hover on a builtin's name shows its call's type and its doc line", async () => {
    const h = await hoverText("map(orders", 0, 1);
    expect(h).toContain("map(…) -> string[]");
    expect(h).toContain("builtin: A list of the lambda's value for each item");
    expect(await hoverText("sort(ids)", 0, 1)).toContain("sort(…) -> string[]");
  }, LIMIT_MS);

  test("a lambda's parameter: an item's type on hover; definition and references inside its lambda only", async () => {
    expect(await hoverText("o.id", 0, 0)).toContain("o: Order");
    expect(await hoverText("(x)", 0, 1)).toContain("x: Order");
    const def = (await lsp.conn.sendRequest("textDocument/definition", at("o.id"))) as any;
    const target = Array.isArray(def) ? def[0] : def;
    expect(target.range.start).toEqual(positionOf(PROGRAM, "(o) =>", 0, 1));
    // The `o` after `>` is the fn's parameter, not the lambda's.
    const outer = (await lsp.conn.sendRequest("textDocument/definition", at("total > o", 0, 8))) as any;
    expect((Array.isArray(outer) ? outer[0] : outer).range.start).toEqual(positionOf(PROGRAM, "o: int"));
    const refs = ((await lsp.conn.sendRequest("textDocument/references", { ...at("(o) =>", 0, 1), context: { includeDeclaration: true } })) as any[]).map((l) => l.range.start);
    expect(refs).toEqual([positionOf(PROGRAM, "(o) =>", 0, 1), positionOf(PROGRAM, "o.id")]);
  }, LIMIT_MS);
});
