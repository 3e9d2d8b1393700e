import { describe, expect, test } from "bun:test";
import { readModuleTools } from "../../src/runtime/tools/registry";
import { NETWORK_CONTEXT_GLOBALS, PROCESS_FACADE_KEYS, STRICT_CONTEXT_GLOBALS } from "../../src/runtime/module-policy";
import { handlerOf, loadModule, project, settle } from "./strict-project";

/** The context's own global names, minus what every JavaScript context has built in. */
const OWN_GLOBALS_PROBE = `
  const builtIn = new Set(["Object","Function","Array","Number","parseFloat","parseInt","Infinity","NaN","undefined","Boolean","String","Symbol","Date","Promise","RegExp","Error","AggregateError","EvalError","RangeError","ReferenceError","SyntaxError","TypeError","URIError","JSON","Math","Intl","ArrayBuffer","Atomics","Uint8Array","Int8Array","Uint16Array","Int16Array","Uint32Array","Int32Array","Float16Array","Float32Array","Float64Array","Uint8ClampedArray","BigUint64Array","BigInt64Array","DataView","Map","BigInt","Set","WeakMap","WeakSet","Proxy","Reflect","FinalizationRegistry","WeakRef","decodeURI","decodeURIComponent","encodeURI","encodeURIComponent","escape","unescape","ev" + "al","isFinite","isNaN","SharedArrayBuffer","WebAssembly","Iterator","AsyncIterator","DisposableStack","AsyncDisposableStack","SuppressedError","ShadowRealm","Temporal", "globalThis"]);
  const all = (function () { return this; })();
  module.exports = { probe: () => Object.getOwnPropertyNames(all).filter((k) => !builtIn.has(k)).sort() };
`;

describe("§10 CommonJS and TypeScript run in a node:vm context whose globals are an explicit list", () => {
  test("a CommonJS module sees exactly the documented host globals", async () => {
    const dir = project({ "m.cjs": OWN_GLOBALS_PROBE });
    const own = (await (await handlerOf(dir, "m.cjs", "probe", { sandbox: "strict", allow_env: true }))()) as string[];
    expect(own).toEqual([...STRICT_CONTEXT_GLOBALS, "process"].sort());
  });

  test("allow_network: true adds fetch and the Web network classes, nothing else", async () => {
    const dir = project({ "m.cjs": OWN_GLOBALS_PROBE });
    const own = (await (await handlerOf(dir, "m.cjs", "probe", { sandbox: "strict", allow_env: true, allow_network: true }))()) as string[];
    expect(own).toEqual([...STRICT_CONTEXT_GLOBALS, ...NETWORK_CONTEXT_GLOBALS, "process"].sort());
  });

  test("a TypeScript ES module has no Buffer, navigator or performance; it has Bun, Web crypto, structuredClone and its own require", async () => {
    const dir = project({
      "m.ts": `export const probe = () => [typeof Buffer, typeof require, typeof navigator, typeof performance, typeof Bun, typeof crypto.subtle, typeof structuredClone, typeof AbortSignal.timeout];`,
    });
    expect(await (await handlerOf(dir, "m.ts", "probe"))()).toEqual(["undefined", "function", "undefined", "undefined", "object", "object", "function", "function"]);
  });

  test("with allow_env: true, `process` is a facade: a copy of env and read-only facts, no exit/binding/getBuiltinModule", async () => {
    const dir = project({ "m.cjs": "module.exports = { probe: () => ({ keys: Object.keys(process).sort(), exit: typeof process.exit, gbm: typeof process['getBuiltin' + 'Module'], env: typeof process.env.PATH }) };" });
    expect(await (await handlerOf(dir, "m.cjs", "probe", { sandbox: "strict", allow_env: true }))()).toEqual({
      keys: [...PROCESS_FACADE_KEYS].sort(),
      exit: "undefined",
      gbm: "undefined",
      env: "string",
    });
  });

  test("string-to-code is off inside the context: new Function via a constructor chain throws EvalError", async () => {
    const dir = project({ "m.cjs": 'module.exports = { probe: () => [].constructor.constructor("return 1")() };' });
    const r = await settle(async () => (await handlerOf(dir, "m.cjs", "probe"))());
    expect(r.ok || r.error.name).toBe("EvalError");
  });

  test("a TypeScript module in ES syntax (imports, top-level await, import.meta) runs in the context too", async () => {
    const dir = project({
      "lib/util.ts": 'export const twice = (n: number): number => n * 2;',
      "lib/data.json": '{ "n": 21 }',
      "m.ts": 'import { twice } from "./lib/util.ts";\nimport data from "./lib/data.json";\nimport { LumaToolError } from "luma";\nconst n: number = await Promise.resolve(data.n);\nexport const probe = () => ({ v: twice(n), url: import.meta.url.endsWith("/m.ts"), err: typeof LumaToolError, buf: typeof Buffer });',
    });
    expect(await (await handlerOf(dir, "m.ts", "probe"))()).toEqual({ v: 42, url: true, err: "function", buf: "undefined" });
  });

  test("`require` inside a TypeScript ES module is the controlled require (Bun makes it import.meta.require)", async () => {
    const dir = project({ "m.ts": 'import { a } from "./a.cjs";\nexport const probe = (input: { name: string }) => a + typeof require(input.name).createHash;', "a.cjs": "exports.a = 'a:';" });
    const probe = await handlerOf(dir, "m.ts", "probe", { sandbox: "strict", allow_builtins: ["crypto"] });
    expect(await probe({ name: "crypto" })).toBe("a:function");
    const r = await settle(() => probe({ name: "fs" }));
    expect(r.ok || r.error.message).toBe(`Tool module 'm.ts' was refused by the strict policy: [allow_builtins] loads builtin 'fs', which is not in "allow_builtins"`);
  });

  test("a TypeScript module written as CommonJS runs in the CommonJS loader of the context", async () => {
    const dir = project({ "m.ts": "const helper = require('./h.cjs');\nmodule.exports = { probe: (): string => typeof Buffer + ':' + helper.v };", "h.cjs": "exports.v = 'h';" });
    expect(await (await handlerOf(dir, "m.ts", "probe"))()).toBe("undefined:h");
  });

  test("an Error thrown inside the context keeps its message through the registry's wrapper", async () => {
    const dir = project({ "m.cjs": 'module.exports = { probe: () => { throw new TypeError("bad input"); } };' });
    const { buildRegistry } = await import("../../src/runtime/tools/registry");
    const { programDeclaring } = await import("../registry/program-fixture");
    const module = await loadModule(dir, "m.cjs");
    const registry = buildRegistry({ program: programDeclaring(["probe"]), modules: [module], maxConcurrency: 1 });
    const r = await settle(() => registry.handler("probe")!({}));
    expect(r.ok || r.error).toBeInstanceOf(Error);
    expect(r.ok || [r.error.name, r.error.message]).toEqual(["TypeError", "bad input"]);
  });
});

describe("§10 ESM under strict loads in-process: lint and allowlists apply, globals are the real ones", () => {
  test("an .mjs module under strict sees the real Buffer and Function (no VM context)", async () => {
    const dir = project({ "m.mjs": 'export const probe = () => [typeof Buffer, typeof [].constructor.constructor("return 1")];' });
    expect(await (await handlerOf(dir, "m.mjs", "probe"))()).toEqual(["function", "function"]);
  });

  test("a .js file under a type:module package.json is ESM and in-process too", async () => {
    const dir = project({ "package.json": '{ "type": "module" }', "m.js": "export const probe = () => typeof Buffer;" });
    const module = await loadModule(dir, "m.js");
    expect(module.kind).toBe("esm");
    expect(await readModuleTools(module).handlers.get("probe")!({})).toBe("function");
  });

  test("the lint still refuses an ES module that names process", async () => {
    const dir = project({ "m.mjs": "export const probe = () => process.env;" });
    const r = await settle(() => loadModule(dir, "m.mjs"));
    expect(r.ok || r.error.message).toBe(`Tool module 'm.mjs' was refused: 1:28 [allow_env] mentions 'process' ("allow_env" is false)`);
  });
});

describe("§10 no tool_module_policy block: no sandbox at all", () => {
  test("a module without a policy block reads process.env, and has fetch and the real globals", async () => {
    const dir = project({ "m.cjs": "module.exports = { probe: () => ({ env: process.env.LUMA_POLICY_TEST_VALUE, fetch: typeof fetch, buffer: typeof Buffer }) };" });
    process.env.LUMA_POLICY_TEST_VALUE = "visible";
    try {
      expect(await (await handlerOf(dir, "m.cjs", "probe", null))()).toEqual({ env: "visible", fetch: "function", buffer: "function" });
    } finally {
      delete process.env.LUMA_POLICY_TEST_VALUE;
    }
  });

  test("sandbox: none inside a block runs modules unchecked too (only the semaphore applies)", async () => {
    const dir = project({ "m.cjs": 'const fs = require("fs");\nmodule.exports = { probe: () => typeof process.env.PATH + typeof fs.readFileSync };' });
    expect(await (await handlerOf(dir, "m.cjs", "probe", { sandbox: "none" }))()).toBe("stringfunction");
  });
});

