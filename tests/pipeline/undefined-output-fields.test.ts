/**
 * "An `undefined` field counts as absent, as in JSON" (docs/pipeline.md), driven through
 * `dist/luma`: a handler returning `{ x: 1, extra: undefined }` returned `{ x: 1 }`. The
 * compiled schema check saw the key and failed the call with TOOL_OUTPUT_INVALID (issue #24).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const PROGRAM = `schema Out {
  x: int
  note?: string
  tags: string[]
}
tool t(a: int) -> Out {
  side_effects: "none"
}
r = tool t({ a: 1 })
print("{r.x} {r.tags}")
print(json(r))
`;

function project(handlerResult: string): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-undefined-output-"));
  writeFileSync(join(dir, "app.luma"), PROGRAM);
  writeFileSync(join(dir, "tools.ts"), `export const lumaTools = { t: async () => (${handlerResult}) };\n`);
  return dir;
}

const run = (handlerResult: string) => runLuma(["app.luma", "--tool-module", "./tools.ts"], { cwd: project(handlerResult) });

describe("a tool output's undefined fields are absent", () => {
  test.each([
    ["an unknown field", "{ x: 1, tags: [], extra: undefined }"],
    ["an optional field", "{ x: 1, tags: [], note: undefined }"],
    ["two of them, one optional and one unknown", "{ x: 1, tags: [], note: undefined, more: undefined }"],
  ])("%s set to undefined is accepted", (_name, result) => {
    const r = run(result);
    expect(r.stderr).toBe("");
    expect(r).toEqual({ exitCode: 0, stdout: '1 []\n{"x":1,"tags":[]}\n', stderr: "" });
  }, 30_000);

  test("an unknown field with a value is still TOOL_OUTPUT_INVALID", () => {
    const r = run("{ x: 1, tags: [], extra: 5 }");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("[TOOL_OUTPUT_INVALID] t.output.extra is not a known field (unknown field).");
  }, 30_000);

  test("a required field set to undefined is missing, named as such", () => {
    const r = run("{ x: undefined, tags: [] }");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("TOOL_OUTPUT_INVALID");
    expect(r.stderr).toContain("t.output.x");
    expect(r.stderr).not.toContain("unknown field");
  }, 30_000);
});
