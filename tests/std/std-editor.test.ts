/**
 * Issue #28 §3: luma:std's contracts are real declarations for the tools around the
 * checker — `luma lsp` (the real binary over stdio) checks a document importing them,
 * reports E1009 in it, hovers a std tool with its contract (and offers no definition: there
 * is no file to open); `--generate-tool-types` types their inputs and results, leaving them
 * out of `GeneratedToolModule` (a module does not serve them).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { positionOf, startLsp, type LspSession } from "../lsp/lsp-client";
import { luma, project } from "./std-project";

const SOURCE = `import { read_file, StdFile } from "luma:std"
f: StdFile = tool read_file({ path: "a.txt" })
print(f.text)
`;

const dir = project({ "main.luma": SOURCE, "a.txt": "A" });
const uri = pathToFileURL(join(dir, "main.luma")).href;
let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp();
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
});

test("luma lsp: an import of luma:std checks clean, a wrong name is E1009 in the document", async () => {
  expect((await lsp.open(uri, SOURCE, 1)).diagnostics).toEqual([]);
  const bad = SOURCE.replace("{ read_file,", "{ read_fil,");
  const { diagnostics } = await lsp.open(uri, bad, 2);
  expect(diagnostics.map((d) => d.code)).toContain("E1009");
  await lsp.open(uri, SOURCE, 3);
}, 60_000);

test("luma lsp: hover on a std tool shows its contract; definition has no file to lead to", async () => {
  const position = positionOf(SOURCE, "read_file({", 0, 2);
  const hover = (await lsp.conn.sendRequest("textDocument/hover", { textDocument: { uri }, position })) as { contents: { value: string } } | null;
  expect(hover?.contents.value).toContain("read_file");
  expect(hover?.contents.value).toContain("StdFile");
  const definition = await lsp.conn.sendRequest("textDocument/definition", { textDocument: { uri }, position });
  expect(definition).toBeNull();
}, 60_000);

test("--generate-tool-types: StdFile and ReadFileInput, but no read_file member in GeneratedToolModule", async () => {
  writeFileSync(join(dir, "main.luma"), SOURCE);
  const r = await luma(["main.luma", "--generate-tool-types", "types.d.ts"], dir);
  expect(r.exitCode).toBe(0);
  const types = readFileSync(join(dir, "types.d.ts"), "utf8");
  expect(types).toContain("export interface StdFile {");
  expect(types).toContain("export interface ReadFileInput {");
  expect(types).toContain("export interface GeneratedToolModule {}");
});
