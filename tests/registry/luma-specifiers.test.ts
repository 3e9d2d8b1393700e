import { describe, expect, test } from "bun:test";
import { isLumaSpecifier, rewriteLegacySpecifiers } from "../../src/runtime/module-loading/luma-virtual-module";
import { checkStaticDependencies } from "../../src/runtime/module-loading/dependency-rules";

describe('§9 "luma" and the legacy path "./src/tool-registry" resolve to the same module', () => {
  const cases: [string, boolean][] = [
    ["luma", true],
    ["./src/tool-registry", true],
    ["./src/tool-registry.ts", true],
    ["../../src/tool-registry.js", true],
    ["../app/src/tool-registry.mjs", true],
    ["./foo-src/tool-registry", false],
    ["./src/tool-registry-extra", false],
    ["src/tool-registry", false], // bare: a package path, not the legacy relative path
    ["luma/sub", false],
  ];
  for (const [specifier, expected] of cases) {
    test(`${JSON.stringify(specifier)} → ${expected ? "luma" : "not luma"}`, () => {
      expect(isLumaSpecifier(specifier)).toBe(expected);
    });
  }

  test("only specifier literals are rewritten, not look-alike strings or member calls", () => {
    const code = [
      'import { LumaToolError } from "./src/tool-registry";',
      "export * from '../src/tool-registry.ts';",
      'const a = require("./src/tool-registry");',
      'const b = await import("./src/tool-registry");',
      'const text = "./src/tool-registry";',
      'const c = Array.from("./src/tool-registry");',
    ].join("\n");
    expect(rewriteLegacySpecifiers(code)).toBe(
      [
        'import { LumaToolError } from "luma";',
        "export * from 'luma';",
        'const a = require("luma");',
        'const b = await import("luma");',
        'const text = "./src/tool-registry";',
        'const c = Array.from("./src/tool-registry");',
      ].join("\n"),
    );
  });
});

describe("§10 dependencies: the static check reads specifier literals only", () => {
  test("a member call named like an import is not an import", () => {
    expect(() => checkStaticDependencies({ allow: new Set() }, "t.js", 'const x = Array.from("lodash"); obj.import("lodash");')).not.toThrow();
  });

  test("builtins, relative paths and luma are not packages", () => {
    const code = 'import a from "node:fs"; import b from "path"; import c from "./helper.js"; import d from "luma";';
    expect(() => checkStaticDependencies({ allow: new Set() }, "t.js", code)).not.toThrow();
  });

  test("scoped and deep package specifiers are checked by package name", () => {
    expect(() => checkStaticDependencies({ allow: new Set(["@scope/pkg", "lodash"]) }, "t.js", 'import a from "@scope/pkg/deep"; import b from "lodash/fp";')).not.toThrow();
    expect(() => checkStaticDependencies({ allow: new Set(["@scope/pkg"]) }, "t.js", 'import a from "@scope/other/deep";')).toThrow(
      "Tool module 't.js' was refused: it imports '@scope/other', which is not in its 'dependencies' allowlist.",
    );
  });
});
