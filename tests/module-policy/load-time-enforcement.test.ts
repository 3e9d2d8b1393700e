import { describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ToolModulePolicy } from "../../src/config/config-types";
import { integrityOf } from "../../src/runtime/module-loading";
import { startupFailure } from "../registry/startup-error-helpers";
import { handlerOf, loadModule, project, settle } from "./strict-project";

const CRYPTO: ToolModulePolicy = { sandbox: "strict", allow_builtins: ["crypto"] };

describe("§10 allow_builtins: enforced at load, with and without `node:`", () => {
  test("a listed builtin loads under both spellings (require and import)", async () => {
    const dir = project({
      "a.cjs": 'const a = require("crypto"), b = require("node:crypto");\nmodule.exports = { probe: () => ({ same: a === b, hash: typeof a.createHash }) };',
      "b.ts": 'import { createHash } from "node:crypto";\nimport * as c from "crypto";\nexport const probe = () => ({ same: c.createHash === createHash });',
      "c.mjs": 'import { createHash } from "crypto";\nexport const probe = () => ({ hash: typeof createHash });',
    });
    expect(await (await handlerOf(dir, "a.cjs", "probe", CRYPTO))()).toEqual({ same: true, hash: "function" });
    expect(await (await handlerOf(dir, "b.ts", "probe", CRYPTO))()).toEqual({ same: true });
    expect(await (await handlerOf(dir, "c.mjs", "probe", CRYPTO))()).toEqual({ hash: "function" });
  });

  for (const [file, text] of [
    ["m.cjs", 'const ok = require("crypto");\nconst fs = require("node:fs");\nmodule.exports = {};'],
    ["m.ts", 'import "crypto";\nimport { readFileSync } from "node:fs";\nexport const x = readFileSync;'],
    ["m.mjs", 'import "crypto";\nimport { readFileSync } from "node:fs";\nexport const x = readFileSync;'],
  ] as const) {
    test(`an unlisted builtin refuses ${file} at load, naming the module, the rule and line:col`, async () => {
      const dir = project({ [file]: text });
      const error = await startupFailure(() => loadModule(dir, file, CRYPTO));
      expect(error.message).toBe(`Tool module '${file}' was refused: 2:${file.endsWith("cjs") ? 20 : 30} [allow_builtins] loads builtin 'node:fs', which is not in "allow_builtins"`);
    });
  }

  test("a constant computed specifier (`\"f\" + \"s\"`) is refused at load: it folds to 'fs'", async () => {
    const dir = project({ "m.cjs": 'module.exports = { probe: () => require("f" + "s") };' });
    const error = await startupFailure(() => loadModule(dir, "m.cjs", CRYPTO));
    expect(error.message).toBe(`Tool module 'm.cjs' was refused: 1:33 [allow_builtins] loads builtin 'fs', which is not in "allow_builtins"`);
  });

  test("a specifier computed at run time is refused at call time, naming what it computed", async () => {
    const dir = project({ "m.cjs": 'module.exports = { probe: (input) => typeof require(input.parts.join("")).readFileSync };' });
    const probe = await handlerOf(dir, "m.cjs", "probe", CRYPTO);
    const r = await settle(() => probe({ parts: ["node:", "f", "s"] }));
    expect(r.ok).toBe(false);
    expect(r.ok || r.error).toMatchObject({
      code: "TOOL_PERMISSION_DENIED",
      phase: "runtime",
      message: `Tool module 'm.cjs' was refused by the strict policy: [allow_builtins] loads builtin 'node:fs', which is not in "allow_builtins"`,
    });
    expect(await probe({ parts: ["cry", "pto"] })).toBe("undefined"); // allowed: crypto has no readFileSync
  });

  test("a specifier computed while the module loads stops the load (startup error naming it)", async () => {
    const dir = project({ "m.cjs": 'const name = ["o", "s"].join("");\nrequire(name);\nmodule.exports = {};' });
    const error = await startupFailure(() => loadModule(dir, "m.cjs", CRYPTO));
    expect(error.message).toBe(`Tool module 'm.cjs' was refused: [allow_builtins] loads builtin 'os', which is not in "allow_builtins"`);
  });

  test("dynamic import() with a computed specifier in the VM context is judged when it runs", async () => {
    const dir = project({ "m.ts": 'export const probe = async (input: { name: string }) => typeof (await import(input.name)).createHash;' });
    const probe = await handlerOf(dir, "m.ts", "probe", CRYPTO);
    expect(await probe({ name: "node:crypto" })).toBe("function");
    const r = await settle(() => probe({ name: "node:os" }));
    expect(r.ok || r.error.message).toBe(`Tool module 'm.ts' was refused by the strict policy: [allow_builtins] loads builtin 'node:os', which is not in "allow_builtins"`);
  });
});

describe("§10 child_process is always refused under strict", () => {
  for (const specifier of ["child_process", "node:child_process"]) {
    test(`'${specifier}' is refused even when allow_builtins lists it`, async () => {
      const dir = project({ "m.cjs": `const cp = require("${specifier}");\nmodule.exports = {};` });
      const error = await startupFailure(() => loadModule(dir, "m.cjs", { sandbox: "strict", allow_builtins: ["child_process"] }));
      expect(error.message).toBe(`Tool module 'm.cjs' was refused: 1:20 [child_process] loads '${specifier}' (child_process is always forbidden under strict)`);
    });
  }
});

describe("§10 network builtins follow allow_network", () => {
  test("node:https listed in allow_builtins is still refused while allow_network is false", async () => {
    const dir = project({ "m.cjs": 'const h = require("node:https");\nmodule.exports = {};' });
    const error = await startupFailure(() => loadModule(dir, "m.cjs", { sandbox: "strict", allow_builtins: ["https"] }));
    expect(error.message).toBe(`Tool module 'm.cjs' was refused: 1:19 [allow_network] loads 'node:https' ("allow_network" is false)`);
  });

  test("with allow_network true and https listed, it loads", async () => {
    const dir = project({ "m.cjs": 'const h = require("node:https");\nmodule.exports = { probe: () => typeof h.request };' });
    expect(await (await handlerOf(dir, "m.cjs", "probe", { sandbox: "strict", allow_builtins: ["https"], allow_network: true }))()).toBe("function");
  });
});

describe("§10 resolution is confined to the project directory (resolved path named)", () => {
  const outsideFile = () => {
    const root = project({ "outside.cjs": "module.exports = { secret: 42 };", "proj/keep.txt": "" });
    return { root, dir: join(root, "proj"), outside: join(root, "outside.cjs") };
  };

  test("`..` out of the project is refused", async () => {
    const { dir, outside } = outsideFile();
    writeFileSync(join(dir, "m.cjs"), 'const o = require("../outside.cjs");\nmodule.exports = {};');
    const error = await startupFailure(() => loadModule(dir, "m.cjs"));
    expect(error.message).toBe(`Tool module 'm.cjs' was refused: 1:19 [project_dir] loads '../outside.cjs', which resolves to ${outside}, outside the project directory ${dir}`);
  });

  test("`..` that stays inside the project is fine", async () => {
    const dir = project({ "lib/helper.cjs": "exports.n = 7;", "sub/m.cjs": 'module.exports = { probe: () => require("../lib/helper.cjs").n };' });
    expect(await (await handlerOf(dir, "sub/m.cjs", "probe"))()).toBe(7);
  });

  test("a project directory whose name starts with '..' is inside the project (regression)", async () => {
    const dir = project({
      "..lib/helper.cjs": "exports.n = 8;",
      "..tools/m.cjs": 'module.exports = { probe: () => require("../..lib/helper.cjs").n + require("./...deep/x.cjs").n };',
      "..tools/...deep/x.cjs": "exports.n = 1;",
      "..tools/e.mjs": 'import { n } from "../..lib/helper.cjs";\nexport const probe = () => n;',
    });
    expect(await (await handlerOf(dir, "..tools/m.cjs", "probe"))()).toBe(9);
    expect(await (await handlerOf(dir, "..tools/e.mjs", "probe"))()).toBe(8);
  });

  test("an absolute path out of the project is refused", async () => {
    const { dir, outside } = outsideFile();
    writeFileSync(join(dir, "m.mjs"), `import o from ${JSON.stringify(outside)};\nexport const x = o;`);
    const error = await startupFailure(() => loadModule(dir, "m.mjs"));
    expect(error.message).toBe(`Tool module 'm.mjs' was refused: 1:15 [project_dir] loads '${outside}', which resolves to ${outside}, outside the project directory ${dir}`);
  });

  test("a symlink inside the project that points out is refused, naming the real path", async () => {
    const { dir, outside } = outsideFile();
    symlinkSync(outside, join(dir, "link.cjs"));
    writeFileSync(join(dir, "m.ts"), 'import o from "./link.cjs";\nexport const x = o;');
    const error = await startupFailure(() => loadModule(dir, "m.ts"));
    expect(error.message).toBe(`Tool module 'm.ts' was refused: 1:15 [project_dir] loads './link.cjs', which resolves to ${outside}, outside the project directory ${dir}`);
  });

  test("a file: URL out of the project is refused; one inside loads", async () => {
    const { dir, outside } = outsideFile();
    writeFileSync(join(dir, "in.cjs"), "exports.v = 1;");
    writeFileSync(join(dir, "m.cjs"), `const a = require(${JSON.stringify(pathToFileURL(join(dir, "in.cjs")).href)});\nconst o = require(${JSON.stringify(pathToFileURL(outside).href)});`);
    const error = await startupFailure(() => loadModule(dir, "m.cjs"));
    expect(error.message).toBe(`Tool module 'm.cjs' was refused: 2:19 [project_dir] loads '${pathToFileURL(outside).href}', which resolves to ${outside}, outside the project directory ${dir}`);
  });

  test("the tool module itself must be a file of the project", async () => {
    const { dir, outside } = outsideFile();
    const error = await startupFailure(() => loadModule(dir, "../outside.cjs"));
    expect(error.message).toBe(`Tool module '../outside.cjs' was refused: [project_dir] the module resolves to ${outside}, outside the project directory ${dir}`);
  });

  test("a package resolved from node_modules above the project is refused", async () => {
    const root = project({ "node_modules/pkg/index.js": "exports.v = 1;", "node_modules/pkg/package.json": '{"name":"pkg"}', "proj/m.cjs": 'module.exports = { probe: () => require("pkg").v };' });
    const dir = join(root, "proj");
    const error = await startupFailure(() => loadModule(dir, "m.cjs"));
    expect(error.message).toBe(`Tool module 'm.cjs' was refused: 1:41 [project_dir] loads 'pkg', which resolves to ${join(root, "node_modules/pkg/index.js")}, outside the project directory ${dir}`);
  });

  test("a native addon (.node) of the project is refused", async () => {
    const dir = project({ "addon.node": "", "m.cjs": 'const a = require("./addon.node");' });
    const error = await startupFailure(() => loadModule(dir, "m.cjs"));
    expect(error.message).toBe(`Tool module 'm.cjs' was refused: 1:19 [file_type] loads '${join(dir, "addon.node")}', which is not a JavaScript, TypeScript or JSON file`);
  });
});

describe("§10 manifest dependencies and dependency_root under strict", () => {
  const withPackages = () =>
    project({
      "vendor/node_modules/leftpad/index.js": 'module.exports = (s, n) => String(s).padStart(n, "0");',
      "vendor/node_modules/leftpad/package.json": '{"name":"leftpad","main":"index.js"}',
      "vendor/node_modules/other/index.js": "module.exports = 1;",
      "vendor/node_modules/other/package.json": '{"name":"other","main":"index.js"}',
    });

  test("a listed package loads from dependency_root; an unlisted one is refused", async () => {
    const dir = withPackages();
    writeFileSync(join(dir, "ok.cjs"), 'const pad = require("leftpad");\nmodule.exports = { probe: () => pad(7, 3) };');
    writeFileSync(join(dir, "bad.cjs"), 'const pad = require("leftpad");\nconst o = require("other");');
    const entry = { dependencies: ["leftpad"], dependency_root: "vendor" };
    expect(await (await handlerOf(dir, "ok.cjs", "probe", { sandbox: "strict" }, entry))()).toBe("007");
    const error = await startupFailure(() => loadModule(dir, "bad.cjs", { sandbox: "strict" }, entry));
    expect(error.message).toBe(`Tool module 'bad.cjs' was refused: 2:19 [dependencies] loads package 'other', which is not in its "dependencies" allowlist`);
  });

  test("with a dependencies list, dynamic import() is refused (literal or computed)", async () => {
    const dir = withPackages();
    writeFileSync(join(dir, "m.ts"), 'export const a = () => import("leftpad");\nexport const b = (n: string) => import(n);');
    const error = await startupFailure(() => loadModule(dir, "m.ts", { sandbox: "strict" }, { dependencies: ["leftpad"], dependency_root: "vendor" }));
    expect(error.message).toBe(
      [
        `Tool module 'm.ts' was refused: 1:31 [dependencies] uses dynamic import() (forbidden when the manifest lists "dependencies")`,
        `Tool module 'm.ts' was refused: 2:33 [dependencies] uses dynamic import() (forbidden when the manifest lists "dependencies")`,
      ].join("\n"),
    );
  });

  test("integrity is still checked first under strict", async () => {
    const dir = project({ "m.cjs": "module.exports = {};" });
    const wrong = integrityOf(new TextEncoder().encode("something else"));
    const error = await startupFailure(() => loadModule(dir, "m.cjs", { sandbox: "strict" }, { integrity: wrong }));
    expect(error.message).toStartWith("Tool module 'm.cjs' was refused: integrity mismatch");
    const right = integrityOf(readFileSync(join(dir, "m.cjs")));
    expect((await loadModule(dir, "m.cjs", { sandbox: "strict" }, { integrity: right })).kind).toBe("cjs");
  });
});

describe("§10 all violations of a module are listed, helpers included", () => {
  test("the module's and its helper's violations, each with its file, rule and line:col", async () => {
    const dir = project({
      "m.ts": 'import { h } from "./lib/h.mjs";\nimport fs from "fs";\nexport const x = () => process.env.K;',
      "lib/h.mjs": 'export const h = () => fetch("x");\n// eval',
    });
    const error = await startupFailure(() => loadModule(dir, "m.ts"));
    expect(error.message.split("\n")).toEqual([
      `Tool module 'm.ts' was refused: 2:16 [allow_builtins] loads builtin 'fs', which is not in "allow_builtins"`,
      `Tool module 'm.ts' was refused: 3:24 [allow_env] mentions 'process' ("allow_env" is false)`,
      `Tool module 'm.ts' was refused: lib/h.mjs:1:24 [allow_network] mentions 'fetch' ("allow_network" is false)`,
      `Tool module 'm.ts' was refused: lib/h.mjs:2:4 [dynamic_code] uses 'eval' (dynamic code is always forbidden under strict)`,
    ]);
  });
});

describe("§10 an in-process ES module: specifiers must be literals under strict", () => {
  test("computed import() and require used as a value are refused at load", async () => {
    const dir = project({ "m.mjs": 'export const a = (n) => import(n);\nconst r = require;\nexport const b = () => r("fs");' });
    const error = await startupFailure(() => loadModule(dir, "m.mjs"));
    expect(error.message.split("\n")).toEqual([
      `Tool module 'm.mjs' was refused: 1:25 [computed_specifier] computes the specifier of import() (an in-process ES module's specifiers must be literals under strict)`,
      `Tool module 'm.mjs' was refused: 2:11 [computed_specifier] uses 'require' other than as require("literal") (an in-process ES module's require cannot be checked when it runs)`,
    ]);
  });

  test("a literal require in an ES module is judged like an import", async () => {
    const dir = project({ "m.mjs": 'const fs = require("fs");\nexport const a = 1;' });
    const error = await startupFailure(() => loadModule(dir, "m.mjs"));
    expect(error.message).toBe(`Tool module 'm.mjs' was refused: 1:20 [allow_builtins] loads builtin 'fs', which is not in "allow_builtins"`);
  });
});

