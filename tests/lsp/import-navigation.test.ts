/**
 * `luma lsp` across imports (issue #28 §1): a document that imports another file is checked
 * with it (import errors and check errors in the document, none from the clean imported
 * file), editing the imported file re-checks its open importers, definition of an imported
 * name (its alias too) lands in the imported file, and references and rename of a
 * declaration cover the declaring file and the open importers — an alias stays. The real
 * binary over stdio, with real files, driven by the standard LSP client.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;

const ORDERS = `schema Order {
  id: string
  total: float
}

fn describe(o: Order) -> string {
  return "order {o.id}"
}
`;

const MAIN = `import { Order, describe as show } from "./lib/orders.luma"

o: Order = { id: "o-1", total: 2 }
print(show(o))
`;

type Pos = { line: number; character: number };
const dir = mkdtempSync(join(tmpdir(), "luma-lsp-imports-"));
const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;
let lsp: LspSession;
let version = 1;

const request = (method: string, uri: string, position: Pos, extra: object = {}) =>
  lsp.conn.sendRequest(method, { textDocument: { uri }, position, ...extra }) as Promise<any>;
const rangeOf = (text: string, needle: string, length: number, delta = 0) => {
  const start = positionOf(text, needle, 0, delta);
  return { start, end: { line: start.line, character: start.character + length } };
};

beforeAll(async () => {
  mkdirSync(join(dir, "lib"));
  writeFileSync(join(dir, "lib/orders.luma"), ORDERS);
  writeFileSync(join(dir, "main.luma"), MAIN);
  lsp = await startLsp();
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe("diagnostics across imports", () => {
  test("a clean importer has none; a name it does not import, or that the file lacks, is reported in it", async () => {
    expect((await lsp.open(uriOf("main.luma"), MAIN, ++version)).diagnostics).toEqual([]);
    const bad = MAIN.replace("import { Order,", "import { Ordr,");
    const { diagnostics } = await lsp.open(uriOf("main.luma"), bad, ++version);
    const codes = diagnostics.map((d) => d.code).sort();
    expect(codes).toContain("E1003");
    expect(codes).toContain("E1007");
    expect(diagnostics.find((d) => d.code === "E1003")!.range).toEqual(rangeOf(bad, "Ordr", 4));
  }, LIMIT_MS);

  test("editing the imported file (open, unsaved) re-checks the open importer", async () => {
    await lsp.open(uriOf("main.luma"), MAIN, ++version);
    const since = lsp.publishedCount();
    // The imported file drops `total`: the importer's object literal no longer fits Order.
    await lsp.open(uriOf("lib/orders.luma"), ORDERS.replace("  total: float\n", ""), ++version);
    const republished = await lsp.nextDiagnostics(uriOf("main.luma"), since);
    expect(republished.diagnostics.length).toBeGreaterThan(0);
    // Back to the text on disk: clean again.
    const again = lsp.publishedCount();
    await lsp.conn.sendNotification("textDocument/didClose", { textDocument: { uri: uriOf("lib/orders.luma") } });
    expect((await lsp.nextDiagnostics(uriOf("main.luma"), again)).diagnostics).toEqual([]);
  }, LIMIT_MS);
});

describe("an imported file's errors show on the import line", () => {
  test("an error inside the imported file: one diagnostic at the path that names it, saying where", async () => {
    await lsp.open(uriOf("main.luma"), MAIN, ++version);
    const since = lsp.publishedCount();
    await lsp.open(uriOf("lib/orders.luma"), ORDERS.replace('return "order {o.id}"', "return o.idd"), ++version);
    const { diagnostics } = await lsp.nextDiagnostics(uriOf("main.luma"), since);
    const shown = diagnostics.find((d) => String(d.message).startsWith("/"));
    expect(shown?.message).toContain("lib/orders.luma has ");
    expect(shown?.message).toContain("7:10: Type 'Order' has no field 'idd'.");
    expect(shown?.range).toEqual(rangeOf(MAIN, '"./lib/orders.luma"', '"./lib/orders.luma"'.length));
    await lsp.conn.sendNotification("textDocument/didClose", { textDocument: { uri: uriOf("lib/orders.luma") } });
  }, LIMIT_MS);
});

describe("navigation across imports", () => {
  test("definition of an imported schema, and of an alias's use, lands in the imported file", async () => {
    await lsp.open(uriOf("main.luma"), MAIN, ++version);
    const orders = uriOf("lib/orders.luma");
    expect(await request("textDocument/definition", uriOf("main.luma"), positionOf(MAIN, "o: Order", 0, 3))).toEqual({
      uri: orders, range: rangeOf(ORDERS, "schema Order", 5, 7),
    });
    expect(await request("textDocument/definition", uriOf("main.luma"), positionOf(MAIN, "show(o)"))).toEqual({
      uri: orders, range: rangeOf(ORDERS, "fn describe", 8, 3),
    });
  }, LIMIT_MS);

  test("the hover of an imported schema reads as in its own file", async () => {
    await lsp.open(uriOf("main.luma"), MAIN, ++version);
    const hover = await request("textDocument/hover", uriOf("main.luma"), positionOf(MAIN, "o: Order", 0, 3));
    expect(hover?.contents?.value).toContain("schema Order");
    expect(hover?.contents?.value).toContain("total");
  }, LIMIT_MS);

  test("references of a declaration cover the declaring file and the open importer", async () => {
    await lsp.open(uriOf("main.luma"), MAIN, ++version);
    const refs = (await request("textDocument/references", uriOf("main.luma"), positionOf(MAIN, "o: Order", 0, 3), { context: { includeDeclaration: true } })) as { uri: string }[];
    const uris = new Set(refs.map((r) => r.uri));
    expect(uris).toEqual(new Set([uriOf("main.luma"), uriOf("lib/orders.luma")]));
    // Declaration + the fn's parameter type in orders.luma; the import name and the annotation in main.luma.
    expect(refs.length).toBe(4);
  }, LIMIT_MS);

  test("rename of an imported fn renames its declaration and the import's name, and leaves the alias", async () => {
    await lsp.open(uriOf("main.luma"), MAIN, ++version);
    const result = await request("textDocument/rename", uriOf("main.luma"), positionOf(MAIN, "describe"), { newName: "summary" });
    const edits = result.changes as Record<string, { range: unknown; newText: string }[]>;
    expect(edits[uriOf("lib/orders.luma")]).toEqual([{ range: rangeOf(ORDERS, "describe", 8), newText: "summary" }]);
    expect(edits[uriOf("main.luma")]).toEqual([{ range: rangeOf(MAIN, "describe", 8), newText: "summary" }]);
  }, LIMIT_MS);
});
