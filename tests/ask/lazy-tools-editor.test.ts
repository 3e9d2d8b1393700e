/**
 * The `lazy` tool key in the editor and the formatter (issue #25 §3): `luma lsp` completes it
 * in a tool block and shows its doc line on hover (both read from the key table), `luma check`
 * rejects a non-bool value, and `luma fmt` keeps it where it is.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { positionOf, startLsp, type LspSession } from "../lsp/lsp-client";

const SOURCE = `schema Done {
  ok: bool
}

tool refund_order(order_id: string) -> Done {
  description: "Refunds an order"
  lazy: true
}
`;

describe("the lazy key in luma lsp", () => {
  let lsp: LspSession;
  beforeAll(async () => {
    lsp = await startLsp();
  });
  afterAll(async () => {
    if (lsp) await lsp.close().catch(() => {});
  });

  test("hover on `lazy`: its doc line and default", async () => {
    const uri = "file:///work/lazy-hover.luma";
    await lsp.open(uri, SOURCE);
    const h: any = await lsp.conn.sendRequest("textDocument/hover", { textDocument: { uri }, position: positionOf(SOURCE, "lazy: true", 0, 2) });
    expect(h.contents.value).toBe("`lazy` (default false): Not sent to the model up front: it finds the tool by calling search_tools.");
  }, 60_000);

  test("completion in a tool block offers `lazy` with its doc line", async () => {
    const text = SOURCE.replace("  lazy: true\n", "  la\n");
    const uri = "file:///work/lazy-complete.luma";
    await lsp.open(uri, text);
    const r: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, "  la\n", 0, 4) });
    const lazy = r.items.find((i: any) => i.label === "lazy");
    expect(lazy?.documentation).toBe("`lazy` (default false): Not sent to the model up front: it finds the tool by calling search_tools.");
  }, 60_000);
});

describe("the lazy key through dist/luma", () => {
  test("luma fmt keeps it (and a second fmt changes nothing); luma check accepts it", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-lazy-fmt-"));
    const file = join(dir, "lazy.luma");
    writeFileSync(file, SOURCE.replace("  lazy: true\n", "    lazy:   true\n"));
    expect(runLuma(["fmt", file]).exitCode).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(SOURCE);
    expect(runLuma(["fmt", "--check", file]).exitCode).toBe(0);
    expect(runLuma(["check", file]).exitCode).toBe(0);
  });

  test('luma check: `lazy: "yes"` is E0220, a lazy tool without description E0276', () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-lazy-check-"));
    const file = join(dir, "bad.luma");
    writeFileSync(file, SOURCE.replace('  description: "Refunds an order"\n', "").replace("lazy: true", 'lazy: "yes"'));
    const wrong = runLuma(["check", file]);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("error[E0220]: Key 'lazy' in tool 'refund_order' must be true or false.");
    writeFileSync(file, SOURCE.replace('  description: "Refunds an order"\n', ""));
    const bare = runLuma(["check", file]);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toContain("error[E0276]: Lazy tool 'refund_order' needs a description");
  });
});
