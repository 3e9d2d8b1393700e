/**
 * Issue #27 §1 — doc comments: the `///` lines directly above a `fn` are its description,
 * seen by the model (tested in agents-as-tools.test.ts), by LSP hover on the method, and by
 * `luma mcp`'s tools/list for a served method. A blank line between ends the comment.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { positionOf, startLsp, type LspSession } from "../lsp/lsp-client";
import { connectLuma } from "../mcp/mcp-harness";

const LIMIT_MS = 60_000;
const PROGRAM = `agent Refunds {
  /// Refunds one order.
  /// Give the order id.
  fn handle(order_id: string) -> string { "refunded {order_id}" }

  /// Not this method's: a blank line follows.

  fn other() -> string { "x" }
}
print(Refunds.handle("A-7"))
`;
const URI = "file:///work/refunds.luma";
let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp();
  await lsp.open(URI, PROGRAM);
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
});

test("LSP hover on a method shows its doc comment; a comment a blank line away is not a doc", async () => {
  const h: any = await lsp.conn.sendRequest("textDocument/hover", { textDocument: { uri: URI }, position: positionOf(PROGRAM, "handle(\"A-7") });
  expect(h.contents.value).toContain("Refunds.handle(");
  expect(h.contents.value).toContain("Refunds one order.\nGive the order id.");
  const o: any = await lsp.conn.sendRequest("textDocument/hover", { textDocument: { uri: URI }, position: positionOf(PROGRAM, "other()") });
  expect(o.contents.value).not.toContain("Not this method's");
}, LIMIT_MS);

test("luma mcp describes a served method by its doc comment", async () => {
  const dir = mkdtempSync(join(tmpdir(), "luma-doc-comments-"));
  const file = join(dir, "refunds.luma");
  writeFileSync(file, PROGRAM);
  const session = await connectLuma([file]);
  try {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t.description]));
    expect(byName.get("Refunds.handle")).toBe("Refunds one order.\nGive the order id.");
    expect(byName.get("Refunds.other")).toBe("Agent method Refunds.other (runs the method, including its ask and tool calls).");
  } finally {
    await session.close();
  }
}, LIMIT_MS);
