/**
 * Issue #24 §2, through `dist/luma`: a crashed handler names its own throwing line, exactly,
 * in modules whose text Bun's transpiler would reshape — a single-use `const` above the
 * `throw` (inlined by the transpiler), blank lines, type-only lines — for TypeScript and
 * JavaScript modules, ES and CommonJS, without and with the strict policy. Under the strict
 * policy the error is carried out of the module's VM context with its stack (it had none:
 * no location at all).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const APP = `schema Ok { ok: bool }
tool crash(n: int) -> Ok {}
print("start")
r = tool crash({ n: 3 })
`;

function firstErrorLine(module: string, text: string, config?: object): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-crash-lines-"));
  writeFileSync(join(dir, "app.luma"), APP);
  writeFileSync(join(dir, module), text);
  if (config) writeFileSync(join(dir, "luma.config.json"), JSON.stringify(config));
  const r = runLuma(["app.luma", "--tool-module", module], { cwd: dir });
  expect(r.exitCode).toBe(1);
  return r.stderr.split("\n")[0];
}

// Line 7 throws; line 5's `limit` is used once (the transpiler inlines it), line 3 is blank.
const TS_ESM = `type Input = { n: number };
export const lumaTools = {

  crash: (input: Input) => {
    const limit = 10;
    const msg = "too big";
    if (input.n < limit) throw new Error(msg);
    return { ok: true };
  },
};
`;
const MJS = TS_ESM.replace("type Input = { n: number };", "// plain JavaScript").replace("(input: Input)", "(input)");
const CJS = MJS.replace("// plain JavaScript\nexport const lumaTools =", "// CommonJS\nmodule.exports =");

const STRICT = { tool_module_policy: { sandbox: "strict" } };
const AT_7 = (file: string) => `Error: [TOOL_HANDLER_ERROR] too big (at ${file}:7:`;

describe("a crashed handler names its own line", () => {
  test("TypeScript ES module: a single-use const and a blank line above the throw", () => {
    expect(firstErrorLine("t.ts", TS_ESM)).toStartWith(AT_7("t.ts"));
  });

  test("JavaScript ES module (.mjs)", () => {
    expect(firstErrorLine("t.mjs", MJS)).toStartWith(AT_7("t.mjs"));
  });

  test("CommonJS (.cjs)", () => {
    expect(firstErrorLine("t.cjs", CJS)).toStartWith(AT_7("t.cjs"));
  });

  test("strict policy, CommonJS: the error keeps its stack out of the VM context", () => {
    expect(firstErrorLine("t.cjs", CJS, STRICT)).toStartWith(AT_7("t.cjs"));
  });

  test("strict policy, JavaScript ES module (.mjs)", () => {
    expect(firstErrorLine("t.mjs", MJS, STRICT)).toStartWith(AT_7("t.mjs"));
  });
});
