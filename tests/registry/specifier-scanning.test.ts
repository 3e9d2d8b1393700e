import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadToolModules } from "../../src/runtime/tools/registry/load-tool-modules";
import { hasUrlScheme, isPathSpecifier } from "../../src/runtime/module-loading/specifier-forms";
import { hasDynamicImport, rewriteSpecifiers, specifiersIn } from "../../src/runtime/module-loading/specifier-rewrite";
import { specifierSites } from "../../src/runtime/module-loading/specifier-sites";
import { policyFor } from "../module-policy/strict-project";

describe("§10 one scanner for module specifiers (loader rewrite, dependencies, strict checks)", () => {
  test("member calls are sites of the strict check, marked, and left out of specifiersIn", () => {
    const code = 'import.meta.require("a"); loader.require("b"); require("c"); obj.import("d"); import("e");';
    expect(specifierSites(code).map((s) => [s.kind, s.specifier, s.member])).toEqual([
      ["require", "a", true],
      ["require", "b", true],
      ["require", "c", false],
      ["import", "d", true],
      ["import", "e", false],
    ]);
    expect(specifiersIn(code)).toEqual(["c", "e"]);
  });

  test("a literal's offset is its opening quote, also with spaces before `)`", () => {
    const code = 'require( "x" );\nimport y from \'y\';';
    expect(specifierSites(code).map((s) => [s.offset, s.end])).toEqual([
      [9, 12],
      [30, 33],
    ]);
  });

  test("dynamic import is a call of the bare `import`, not a member named so", () => {
    expect(hasDynamicImport('const m = await import("x");')).toBe(true);
    expect(hasDynamicImport('obj.import("x"); import.meta.url; import y from "y";')).toBe(false);
  });

  test("the rewrite keeps each literal's quote, decodes escapes, and leaves other text alone", () => {
    const code = 'require(`./src/tool-registry`); import "./src/tool\\u002dregistry"; const s = "./src/tool-registry";';
    const legacy = (s: string) => (s.endsWith("src/tool-registry") ? "luma" : undefined);
    expect(rewriteSpecifiers(code, legacy)).toBe('require(`luma`); import "luma"; const s = "./src/tool-registry";');
    expect(rewriteSpecifiers("import x from 'a';", () => "/p/it's.js")).toBe('import x from "/p/it\'s.js";');
  });
});

describe("§10 one test for a path specifier (CommonJS require, dependencies, strict table)", () => {
  const cases: [string, boolean][] = [
    [".", true],
    ["..", true],
    ["./x", true],
    ["../x", true],
    ["/abs/x.js", true],
    ["..foo", false],
    [".x", false],
    ["lodash", false],
    ["node:fs", false],
  ];
  for (const [specifier, path] of cases) {
    test(`${JSON.stringify(specifier)} ${path ? "is" : "is not"} a path`, () => {
      expect(isPathSpecifier(specifier)).toBe(path);
    });
  }
  test("a `scheme:` prefix is URL-ish", () => {
    expect(["node:fs", "file:///x", "data:text/javascript,1", "bun:ffi"].every(hasUrlScheme)).toBe(true);
    expect(["./a:b", "lodash", "@s/p"].some(hasUrlScheme)).toBe(false);
  });
});

describe("§10 one CommonJS wrapper, plain and strict", () => {
  const files = {
    "a.cjs": 'exports.early = true;\nconst b = require("./b.cjs");\nexports.fromB = b.sawEarly;\nexports.self = this === module.exports;\nexports.where = __filename.endsWith("a.cjs") && __dirname.length > 0;\nmodule.exports.lumaTools = { probe: () => ({ fromB: exports.fromB, self: exports.self, where: exports.where }) };',
    "b.cjs": 'const a = require("./a.cjs");\nexports.sawEarly = a.early === true && a.fromB === undefined;',
  };
  for (const strict of [false, true]) {
    test(`${strict ? "strict" : "plain"}: a cycle sees partial exports; this, __filename and __dirname are Node's`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "luma-cjs-wrapper-"));
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const [module] = await loadToolModules([{ shownPath: "a.cjs", absPath: join(dir, "a.cjs") }], strict ? policyFor(dir, { sandbox: "strict" }) : undefined);
      const tools = (module.exports as { lumaTools: { probe: () => unknown } }).lumaTools;
      expect(tools.probe()).toEqual({ fromB: true, self: true, where: true });
    });
  }
});

describe("§10 export shape: a value's kind is worded as everywhere else (src/runtime/base/value-kind.ts)", () => {
  test("a list is 'an array', a missing value 'nothing' — as tool outputs and query rows say it", async () => {
    const { readModuleTools } = await import("../../src/runtime/tools/registry");
    const module = { shownPath: "m.ts", realPath: "/m.ts", kind: "ts" as const, exports: { tools: { a: [1], b: null }, datasources: { W: undefined } } };
    expect(() => readModuleTools(module)).toThrow(
      [
        "Tool module 'm.ts' export 'tools.a' must be a function (got an array).",
        "Tool module 'm.ts' export 'tools.b' must be a function (got null).",
        "Tool module 'm.ts' export 'datasources.W' must be a function (got nothing).",
      ].join("\n"),
    );
  });
});
