/**
 * The strict policy holds for the whole graph a module reaches (spec §10, docs/modules.md
 * "Strict policy", its "packages" row): a package from node_modules is read, checked and run by Luma — in the
 * module's VM context for CommonJS/TypeScript — and its source is judged by the same builtin
 * allowlist, `child_process` always refused. Package code is not linted for env, network or
 * dynamic-code words (a documented choice). User-visible refusals are driven through `dist/luma`.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { handlerOf, loadModule, project, settle } from "./strict-project";

const PROGRAM = "schema Out { value: string }\ntool probe() -> Out {}\nr = tool probe({})\nprint(r.value)\n";

const strictConfig = (module: string, policy: Record<string, unknown> = {}, entry: Record<string, unknown> = {}) =>
  JSON.stringify({ tool_modules: [{ path: module, ...entry }], tool_module_policy: { sandbox: "strict", ...policy } });

const pkg = (name: string, main: string, body: string, type?: string): Record<string, string> => ({
  [`node_modules/${name}/package.json`]: JSON.stringify({ name, main, ...(type ? { type } : {}) }),
  [`node_modules/${name}/${main}`]: body,
});

const run = (files: Record<string, string>) => {
  const dir = project({ "main.luma": PROGRAM, ...files });
  return { dir, r: runLuma([join(dir, "main.luma")]) };
};

describe("§10 the builtin allowlist holds for every file a strict module reaches, packages included", () => {
  test("a package that requires child_process refuses the module at load, naming the package file (through dist/luma)", () => {
    const marker = "spawned-by-package";
    const { dir, r } = run({
      "luma.config.json": strictConfig("./tool.ts"),
      "tool.ts": 'import { run } from "sneaky";\nexport const probe = () => ({ value: String(run()) });\n',
      ...pkg("sneaky", "index.js", `const cp = require("child_process");\nmodule.exports = { run: () => cp.execSync("touch ${marker}") };\n`),
    });
    expect(r.stderr).toBe(
      "Error: Tool module './tool.ts' was refused: node_modules/sneaky/index.js:1:20 [child_process] loads 'child_process' (child_process is always forbidden under strict)\n  = code E0505 (luma explain E0505)\n",
    );
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(existsSync(join(dir, marker))).toBe(false);
  });

  test("a package's own dependency is judged too: an unlisted fs two packages deep is refused; listed, it runs", () => {
    const files = {
      "tool.cjs": 'const outer = require("outer");\nmodule.exports = { probe: () => ({ value: outer.read() }) };\n',
      ...pkg("outer", "index.js", 'const inner = require("inner");\nmodule.exports = { read: () => inner.kind() };\n'),
      ...pkg("inner", "index.js", 'const fs = require("node:fs");\nmodule.exports = { kind: () => typeof fs.readFileSync };\n'),
    };
    const refused = run({ ...files, "luma.config.json": strictConfig("./tool.cjs") });
    expect(refused.r.stderr).toBe(
      `Error: Tool module './tool.cjs' was refused: node_modules/inner/index.js:1:20 [allow_builtins] loads builtin 'node:fs', which is not in "allow_builtins"\n  = code E0505 (luma explain E0505)\n`,
    );
    expect(refused.r.exitCode).toBe(2);
    const allowed = run({ ...files, "luma.config.json": strictConfig("./tool.cjs", { allow_builtins: ["fs"] }) });
    expect(allowed.r.stderr).toBe("");
    expect(allowed.r.stdout).toBe("function\n");
    expect(allowed.r.exitCode).toBe(0);
  });

  test("an in-process ES module's package graph is checked before Bun loads it (through dist/luma)", () => {
    const { r } = run({
      "luma.config.json": strictConfig("./tool.mjs"),
      "tool.mjs": 'import { run } from "esm-pkg";\nexport const probe = () => ({ value: run() });\n',
      ...pkg("esm-pkg", "index.mjs", 'import { execSync } from "node:child_process";\nexport const run = () => String(execSync("id -u"));\n'),
    });
    expect(r.stderr).toBe(
      "Error: Tool module './tool.mjs' was refused: node_modules/esm-pkg/index.mjs:1:26 [child_process] loads 'node:child_process' (child_process is always forbidden under strict)\n  = code E0505 (luma explain E0505)\n",
    );
    expect(r.exitCode).toBe(2);
  });

  test("an in-process ES module's package may not compute a specifier (Bun's require inside it is nobody's to judge)", async () => {
    const dir = project({
      "tool.mjs": 'import { load } from "computes";\nexport const probe = () => load();\n',
      ...pkg("computes", "index.js", 'module.exports = { load: () => require(["chi", "ld_process"].join("")) };\n'),
    });
    const loaded = await settle(() => loadModule(dir, "tool.mjs"));
    expect(loaded.ok || loaded.error.message).toMatch(/^Tool module 'tool\.mjs' was refused: node_modules\/computes\/index\.js:1:\d+ \[computed_specifier\]/);
  });

  test("a package's computed require in the VM context is judged when it runs (TOOL_PERMISSION_DENIED)", async () => {
    const dir = project({
      "tool.cjs": 'const c = require("computes");\nmodule.exports = { probe: () => c.load() };\n',
      ...pkg("computes", "index.js", 'module.exports = { load: () => require(["chi", "ld_process"].join("")) };\n'),
    });
    const probe = await handlerOf(dir, "tool.cjs", "probe");
    const ran = await settle(() => probe({}));
    expect(ran.ok || ran.error.code).toBe("TOOL_PERMISSION_DENIED");
    expect(ran.ok || ran.error.message).toContain("[child_process] loads 'child_process'");
  });

  test("reaching builtins around the allowlist is refused in package code too (getBuiltinModule)", async () => {
    const dir = project({
      "tool.cjs": 'const p = require("reacher");\nmodule.exports = { probe: () => p };\n',
      ...pkg("reacher", "index.js", 'module.exports = typeof process === "object" ? process.getBuiltinModule("fs") : null;\n'),
    });
    const loaded = await settle(() => loadModule(dir, "tool.cjs"));
    expect(loaded.ok || loaded.error.message).toMatch(/node_modules\/reacher\/index\.js:1:\d+ \[allow_builtins\] uses 'getBuiltinModule'/);
  });
});

describe("§10 package code runs in the module's VM context and is not linted for words (documented choice)", () => {
  test("a package mentioning process.env loads, and in the VM context there is no process to read", async () => {
    const dir = project({
      "tool.cjs": 'const env = require("env-reader");\nmodule.exports = { probe: () => env.mode() };\n',
      ...pkg("env-reader", "index.js", 'module.exports = { mode: () => (typeof process === "undefined" ? "no process" : process.env.NODE_ENV) };\n'),
    });
    const probe = await handlerOf(dir, "tool.cjs", "probe");
    expect(await probe({})).toBe("no process");
  });

  test("a package's globals are the context's: its Function refuses string code", async () => {
    const dir = project({
      "tool.ts": 'import { global } from "polyfill";\nexport const probe = () => global();\n',
      ...pkg("polyfill", "index.js", 'module.exports = { global: () => Function("return this")() };\n'),
    });
    const probe = await handlerOf(dir, "tool.ts", "probe");
    const ran = await settle(() => probe({}));
    expect(ran.ok || ran.error.message).toContain("Code generation from strings disallowed");
  });

  test("the dependencies allowlist names what the module imports, not what its packages import", async () => {
    const dir = project({
      "tool.cjs": 'const a = require("listed");\nmodule.exports = { probe: () => a.v };\n',
      ...pkg("listed", "index.js", 'module.exports = { v: require("transitive").v + 1 };\n'),
      ...pkg("transitive", "index.js", "module.exports = { v: 41 };\n"),
    });
    const probe = await handlerOf(dir, "tool.cjs", "probe", undefined, { dependencies: ["listed"] });
    expect(await probe({})).toBe(42);
  });

  test("a file the module loads by path is the module's own, linted in full, even under node_modules", async () => {
    const dir = project({
      "tool.cjs": 'const a = require("./node_modules/words/index.js");\nmodule.exports = { probe: () => a };\n',
      ...pkg("words", "index.js", "module.exports = typeof process;\n"),
    });
    const loaded = await settle(() => loadModule(dir, "tool.cjs"));
    expect(loaded.ok || loaded.error.message).toContain("node_modules/words/index.js:1:25 [allow_env] mentions 'process'");
  });
});
