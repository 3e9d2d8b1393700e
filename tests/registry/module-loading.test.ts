import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolModuleEntry } from "../../src/config/config-types";
import { LumaError } from "../../src/diagnostics/luma-error";
import { isLumaToolError, LumaToolError } from "../../src/luma-module";
import { integrityOf, type ModuleRequest } from "../../src/runtime/module-loading";
import { loadToolModules } from "../../src/runtime/tools/registry/load-tool-modules";
import { readModuleTools } from "../../src/runtime/tools/registry";
import { startupFailure } from "./startup-error-helpers";

const FIXTURES = join(import.meta.dir, "fixtures");
const fixture = (path: string) => join(FIXTURES, path);
const request = (path: string, entry?: Partial<ToolModuleEntry>): ModuleRequest => ({
  shownPath: path,
  absPath: fixture(path),
  entry: entry ? { path, ...entry } : undefined,
});
const tempDir = () => mkdtempSync(join(tmpdir(), "luma-modules-"));

async function loadOne(req: ModuleRequest) {
  const [module] = await loadToolModules([req]);
  return module;
}

describe("§10 file types: .ts/.mts transpiled, .js/.cjs CommonJS, .mjs and type:module .js ESM", () => {
  const cases: [path: string, kind: string, probeKind: string][] = [
    ["luma-imports/ts-module.ts", "ts", "ts"],
    ["luma-imports/mts-module.mts", "ts", "mts"],
    ["luma-imports/cjs/js-module.js", "cjs", "js-commonjs"],
    ["luma-imports/cjs-module.cjs", "cjs", "cjs"],
    ["luma-imports/mjs-module.mjs", "esm", "mjs"],
    ["luma-imports/esm/js-module.js", "esm", "js-esm"],
    ["luma-imports/ts-commonjs.ts", "ts", "ts-commonjs"],
  ];

  for (const [path, kind, probeKind] of cases) {
    test(`${path} loads as ${kind} and imports LumaToolError from "luma" and the legacy path`, async () => {
      const module = await loadOne(request(path));
      expect(module.kind).toBe(kind as never);
      const out = readModuleTools(module).handlers.get("probe")!({ code: "E_PROBE" });
      expect(out.kind).toBe(probeKind);
      expect(out.legacySame).toBe(true);
      expect(out.error).toBeInstanceOf(LumaToolError);
      expect(out.error).toBeInstanceOf(LumaError);
      expect(isLumaToolError(out.error)).toBe(true);
      expect(out.error).toMatchObject({ code: "E_PROBE", phase: "runtime" });
    });
  }

  test("a relative require from a CommonJS module goes through the same controlled require", async () => {
    const out = readModuleTools(await loadOne(request("luma-imports/cjs/js-module.js"))).handlers.get("probe")!({ code: "X" });
    expect(out.helperSawLuma).toBe(true);
  });

  test("a .js file without a type:module package.json above it is CommonJS", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tools.js"), 'module.exports = { calculate: () => ({ result: typeof require("luma").LumaToolError }) };');
    const module = await loadOne({ shownPath: "tools.js", absPath: join(dir, "tools.js") });
    expect(module.kind).toBe("cjs");
    expect(readModuleTools(module).handlers.get("calculate")!({})).toEqual({ result: "function" });
  });

  test("an unsupported file type is a startup error naming the module", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tools.tsx"), "export const calculate = () => 1;");
    const error = await startupFailure(() => loadToolModules([{ shownPath: "./tools.tsx", absPath: join(dir, "tools.tsx") }]));
    expect(error.message).toBe("Tool module './tools.tsx' could not be loaded: unsupported file type '.tsx' (expected .ts, .mts, .cjs, .mjs, .js).");
  });
});

describe("§10 integrity: sha256-<base64> checked before loading", () => {
  test("a matching integrity loads the module", async () => {
    const path = "registry/versioned.ts";
    const integrity = integrityOf(readFileSync(fixture(path)));
    const module = await loadOne(request(path, { integrity }));
    expect(readModuleTools(module).handlers.has("version_probe")).toBe(true);
  });

  test("a mismatch refuses the load, naming the module, expected and actual", async () => {
    const dir = tempDir();
    const file = join(dir, "tools.cjs");
    // The module would record that it ran; the refusal must come before that.
    writeFileSync(file, `globalThis.__lumaIntegrityRan = true; exports.calculate = () => 1;`);
    const expected = integrityOf(new TextEncoder().encode("other content"));
    const error = await startupFailure(() => loadToolModules([{ shownPath: "./tools.cjs", absPath: file, entry: { path: "./tools.cjs", integrity: expected } }]));
    expect(error.message).toBe(
      `Tool module './tools.cjs' was refused: integrity mismatch (expected ${expected}, actual ${integrityOf(readFileSync(file))}).`,
    );
    expect((globalThis as Record<string, unknown>).__lumaIntegrityRan).toBeUndefined();
  });
});

describe("§10 version: the same file loaded twice with different metadata is an error", () => {
  test("two spellings of one file with different versions → startup error", async () => {
    const a = request("registry/versioned.ts", { version: "1.0.0" });
    const b: ModuleRequest = { shownPath: "./fixtures/../fixtures/registry/versioned.ts", absPath: join(FIXTURES, "../fixtures/registry/versioned.ts"), entry: { path: "x", version: "2.0.0" } };
    const error = await startupFailure(() => loadToolModules([a, b]));
    expect(error.message).toContain("is loaded twice with different metadata: version '1.0.0'");
    expect(error.message).toContain("'2.0.0'");
    expect(error.message).toContain(fixture("registry/versioned.ts"));
  });

  test("the same file with the same metadata (or none) is loaded once", async () => {
    const modules = await loadToolModules([
      request("registry/versioned.ts", { version: "1.0.0" }),
      request("registry/versioned.ts", { version: "1.0.0" }),
      request("registry/versioned.ts"),
    ]);
    expect(modules).toHaveLength(1);
    expect(modules[0].version).toBe("1.0.0");
  });
});

describe("§10 load failures are clear startup errors naming the module (no stack trace)", () => {
  test("missing file", async () => {
    const error = await startupFailure(() => loadToolModules([request("registry/no-such-module.ts")]));
    expect(error.message).toBe(`Tool module 'registry/no-such-module.ts' could not be loaded: file not found (${fixture("registry/no-such-module.ts")}).`);
  });

  test("syntax error, with line:col", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.ts"), "export const calculate = (input: { a: number }) => {\n  return { result: input.a + };\n};\n");
    const error = await startupFailure(() => loadToolModules([{ shownPath: "./bad.ts", absPath: join(dir, "bad.ts") }]));
    expect(error.message).toBe("Tool module './bad.ts' could not be loaded: syntax error at 2:30: Unexpected }");
  });

  test("CommonJS module that throws at load", async () => {
    const error = await startupFailure(() => loadToolModules([request("errors/throws-at-load.cjs")]));
    expect(error.message).toBe("Tool module 'errors/throws-at-load.cjs' could not be loaded: it threw while loading: database URL is not configured");
  });

  test("ES module that throws at load", async () => {
    const error = await startupFailure(() => loadToolModules([request("errors/throws-at-load.mjs")]));
    expect(error.message).toBe("Tool module 'errors/throws-at-load.mjs' could not be loaded: it threw while loading: cannot start the tool module");
  });

  test("an import the module cannot resolve", async () => {
    const error = await startupFailure(() => loadToolModules([request("errors/missing-import.mjs")]));
    expect(error.message).toStartWith("Tool module 'errors/missing-import.mjs' could not be loaded: ");
    expect(error.message).toContain("no-such-helper.mjs");
  });
});

describe("§10 dependencies allowlist and dependency_root", () => {
  test("a listed package and builtins may be imported", async () => {
    const module = await loadOne(request("deps/allowed.mjs", { dependencies: ["picocolors"] }));
    expect(await readModuleTools(module).handlers.get("colour")!({})).toEqual({ ok: true });
  });

  test("a package not in 'dependencies' refuses the module", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tools.mjs"), readFileSync(fixture("deps/allowed.mjs")));
    const error = await startupFailure(() =>
      loadToolModules([{ shownPath: "./tools.mjs", absPath: join(dir, "tools.mjs"), entry: { path: "./tools.mjs", dependencies: ["lodash"] } }]),
    );
    expect(error.message).toBe("Tool module './tools.mjs' was refused: it imports 'picocolors', which is not in its 'dependencies' allowlist.");
  });

  test("with 'dependencies' given, dynamic import() is forbidden", async () => {
    const error = await startupFailure(() => loadToolModules([request("deps/dynamic-import.mjs", { dependencies: ["picocolors"] })]));
    expect(error.message).toBe("Tool module 'deps/dynamic-import.mjs' was refused: dynamic import() is forbidden when the manifest lists 'dependencies'.");
  });

  test("a computed require of an unlisted package is refused by the controlled require", async () => {
    const error = await startupFailure(() => loadToolModules([request("deps/cjs/computed-require.js", { dependencies: [] })]));
    expect(error.message).toBe("Tool module 'deps/cjs/computed-require.js' was refused: it imports 'picocolors', which is not in its 'dependencies' allowlist.");
  });

  test("packages resolve from dependency_root", async () => {
    const dir = tempDir();
    const pkg = join(dir, "vendor/node_modules/fake-dep");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "fake-dep", main: "index.js" }));
    writeFileSync(join(pkg, "index.js"), "module.exports = { where: 'vendor' };");
    writeFileSync(join(dir, "tools.cjs"), "const dep = require('fake-dep'); exports.probe = () => dep.where;");
    writeFileSync(join(dir, "tools.mjs"), "import dep from 'fake-dep'; export const probe = () => dep.where;");
    mkdirSync(join(dir, "modules"));
    for (const file of ["tools.cjs", "tools.mjs"]) {
      // The module sits in modules/, which has no node_modules of its own.
      writeFileSync(join(dir, "modules", file), readFileSync(join(dir, file)));
      const [module] = await loadToolModules([
        { shownPath: file, absPath: join(dir, "modules", file), entry: { path: file, dependencies: ["fake-dep"] }, dependencyRoot: join(dir, "vendor") },
      ]);
      expect(readModuleTools(module).handlers.get("probe")!({})).toBe("vendor");
    }
  });
});
