/**
 * Issue #12.5 and #12.6 through the real binary: every uncaught runtime error — tool, query
 * and command errors included — prints a source excerpt (file:line:col, the line, a caret)
 * under its `Error: [CODE] message` line, which stays byte for byte; a crashed handler names
 * its own file:line (TypeScript's lines, not the transpiled text's) and, under LUMA_DEBUG=1,
 * its stack without the binary's frames; a plain object thrown keeps its `message`.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-locations-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const APP = `schema Ok { ok: bool }
tool crash(n: int) -> Ok {}
print("start")
r = tool crash({ n: 3 })
`;
const EXCERPT = "  --> app.luma:4:5\n  4 | r = tool crash({ n: 3 })\n    |     ^^^^^^^^^^^^^^^^^^^^\n";

// Type-only lines before the throw: Bun.Transpiler drops them, so a stack through its output
// would name line 4, not 7.
const TS_HANDLER = `interface Input { n: number }
type Label = string;

export const lumaTools = {
  crash: (input: Input) => {
    const label: Label = "n=";
    throw new Error("boom " + label + input.n);
  },
};
`;

describe("issue #12.5: every uncaught runtime error has a location", () => {
  test("TOOL_INPUT_INVALID: the message line unchanged, the call's excerpt under it", () => {
    const dir = project({
      "app.luma": `schema Ok { ok: bool }\ntool lookup(id: int) -> Ok {}\nbad: any = { id: "x" }\nr = tool lookup(bad)\n`,
      "t.ts": "export const lookup = () => ({ ok: true });\n",
    });
    const r = runLuma(["app.luma", "--tool-module", "t.ts"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    const [first, ...rest] = r.stderr.split("\n");
    expect(first).toStartWith("Error: [TOOL_INPUT_INVALID] lookup.input.id");
    expect(rest.join("\n")).toBe("  --> app.luma:4:5\n  4 | r = tool lookup(bad)\n    |     ^^^^^^^^^^^^^^^^\n");
  });

  test("TOOL_HANDLER_ERROR points at the tool call", () => {
    const dir = project({ "app.luma": APP, "t.ts": TS_HANDLER });
    const r = runLuma(["app.luma", "--tool-module", "t.ts"], { cwd: dir });
    expect(r).toEqual({ exitCode: 1, stdout: "start\n", stderr: `Error: [TOOL_HANDLER_ERROR] boom n=3 (at t.ts:7:15)\n${EXCERPT}` });
  });

  test("a query error (QUERY_ROW_INVALID) points at the query call", () => {
    const dir = project({
      "app.luma": `datasource Db { url: "sqlite:db.sqlite" }\nschema Row { n: int }\nquery rows(limit: int) -> Row[] {\n  source: Db\n  sql: "SELECT n FROM t LIMIT $1"\n}\nxs = query rows({ limit: 1 })\n`,
    });
    const db = new Database(join(dir, "db.sqlite"));
    db.run("CREATE TABLE t (n TEXT)");
    db.run("INSERT INTO t VALUES ('not a number')");
    db.close();
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^Error: \[QUERY_ROW_INVALID\] [^\n]*\n {2}--> app\.luma:7:6\n {2}7 \| xs = query rows\(\{ limit: 1 \}\)\n {4}\| {6}\^{24}\n$/);
  });

  test("an error inside an agent method keeps its innermost site, not the outer call's", () => {
    const dir = project({
      "app.luma": `agent A {\n  fn half(x: int) -> float {\n    x / 0\n  }\n}\nprint(A.half(4))\n`,
    });
    const r = runLuma(["app.luma"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe("Error: [RUNTIME_ERROR] Division by zero at app.luma:3:5\n  --> app.luma:3:5\n  3 |     x / 0\n    |     ^^^^^\n");
  });
});

describe("issue #12.6: a crash inside a handler shows where", () => {
  test("TypeScript: the module's own line, not the transpiled text's", () => {
    const dir = project({ "app.luma": APP, "t.ts": TS_HANDLER });
    expect(runLuma(["app.luma", "--tool-module", "t.ts"], { cwd: dir }).stderr.split("\n")[0]).toBe(
      "Error: [TOOL_HANDLER_ERROR] boom n=3 (at t.ts:7:15)",
    );
  });

  test("CommonJS: the file's own line (the VM wrapper's extra line is taken back)", () => {
    const dir = project({
      "app.luma": APP,
      "t.cjs": `// one\nmodule.exports = {\n  crash: () => {\n    JSON.parse("{bad");\n  },\n};\n`,
    });
    expect(runLuma(["app.luma", "--tool-module", "t.cjs"], { cwd: dir }).stderr.split("\n")[0]).toMatch(
      /^Error: \[TOOL_HANDLER_ERROR\] JSON Parse error: .* \(at t\.cjs:4:\d+\)$/,
    );
  });

  test("LUMA_DEBUG=1: the handler's own stack, no frame of the binary", () => {
    const dir = project({ "app.luma": APP, "t.ts": TS_HANDLER });
    const r = runLuma(["app.luma", "--tool-module", "t.ts"], { cwd: dir, env: { LUMA_DEBUG: "1" } });
    expect(r.stderr).toContain(`${EXCERPT}Error: boom n=3\n    at crash (${join(dir, "t.ts")}:7:15)`);
    expect(r.stderr).not.toContain("$bunfs");
  });

  test("a plain object thrown keeps its message, reaching catch e too", () => {
    const dir = project({
      "app.luma": `${APP.replace('r = tool crash({ n: 3 })\n', "")}try {\n  tool crash({ n: 3 })\n} catch e {\n  print(e.code, e.message)\n}\n`,
      "t.cjs": `module.exports = { crash: () => { throw { message: "printer on fire" }; } };\n`,
    });
    expect(runLuma(["app.luma", "--tool-module", "t.cjs"], { cwd: dir })).toEqual({
      exitCode: 0, stdout: "start\nTOOL_HANDLER_ERROR printer on fire\n", stderr: "",
    });
  });
});
