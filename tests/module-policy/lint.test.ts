import { describe, expect, test } from "bun:test";
import { blankComments } from "../../src/runtime/module-policy/comment-blanking";
import { lintModuleText } from "../../src/runtime/module-policy/lint-module-text";
import { policyFor, project } from "./strict-project";

const dir = project({});
const strict = policyFor(dir, { sandbox: "strict" });
const lint = (text: string, block = {}) => lintModuleText(text, policyFor(dir, { sandbox: "strict", ...block })).map((v) => `${v.line}:${v.col} ${v.rule} ${v.message}`);

describe("§10 allow_env: false refuses `process` / `globalThis` as a whole word (raw text, comments and strings included)", () => {
  test("process and globalThis are refused wherever they appear, each with its line:col", () => {
    expect(lint('const a = 1;\nconst k = process.env.KEY; // globalThis\nconst s = "process";')).toEqual([
      `2:11 allow_env mentions 'process' ("allow_env" is false)`,
      `2:31 allow_env mentions 'globalThis' ("allow_env" is false)`,
      `3:12 allow_env mentions 'process' ("allow_env" is false)`,
    ]);
  });

  test("`child_process` does not count as `process`, nor `processor`, `processing` or `myGlobalThis`", () => {
    expect(lint("const child_process = 1; const processor = 2; let processing, myGlobalThis, $process_;")).toEqual([]);
  });

  test("Bun's names for the same environment are refused too: Bun.env, import.meta.env", () => {
    expect(lint("const a = Bun.env.KEY;\nconst b = import.meta.env.KEY;\nconst c = Bun . env;")).toEqual([
      `1:11 allow_env mentions 'Bun.env' ("allow_env" is false)`,
      `2:11 allow_env mentions 'import.meta.env' ("allow_env" is false)`,
      `3:11 allow_env mentions 'Bun.env' ("allow_env" is false)`,
    ]);
  });

  test("unicode escapes are read as the engine reads them: \\u0070rocess is process, at the raw position", () => {
    expect(lint("const x = 1;\n  \\u0070rocess.env;\n  glob\\u{61}lThis;")).toEqual([
      `2:3 allow_env mentions 'process' ("allow_env" is false)`,
      `3:3 allow_env mentions 'globalThis' ("allow_env" is false)`,
    ]);
  });

  test("allow_env: true turns the rule off", () => {
    expect(lint("process.env.KEY; globalThis.x; Bun.env.Y", { allow_env: true })).toEqual([]);
  });
});

describe("§10 allow_network: false refuses fetch, http, net, tls, WebSocket as whole words", () => {
  test("each word is refused, specifier spellings such as node:http included", () => {
    expect(lint('fetch(u);\nimport h from "node:http";\nconst n = require("net"), t = "tls";\nnew WebSocket(u);')).toEqual([
      `1:1 allow_network mentions 'fetch' ("allow_network" is false)`,
      `2:21 allow_network mentions 'http' ("allow_network" is false)`,
      `3:20 allow_network mentions 'net' ("allow_network" is false)`,
      `3:32 allow_network mentions 'tls' ("allow_network" is false)`,
      `4:5 allow_network mentions 'WebSocket' ("allow_network" is false)`,
    ]);
  });

  test("https, network, netCost, prefetch are other words", () => {
    expect(lint('const https = 1, network = 2, netCost = 3; prefetch(); const u = "https://x";')).toEqual([]);
  });

  test("allow_network: true turns the rule off", () => {
    expect(lint("fetch(u); new WebSocket(u);", { allow_network: true })).toEqual([]);
  });
});

describe("§10 always forbidden under strict: eval(…) and Function(…)", () => {
  test("eval in any form and Function(…) called, with or without new", () => {
    expect(lint('eval("1");\n(0, eval)("2");\nnew Function("return 1");\nconst f = Function ("x");')).toEqual([
      `1:1 dynamic_code uses 'eval' (dynamic code is always forbidden under strict)`,
      `2:5 dynamic_code uses 'eval' (dynamic code is always forbidden under strict)`,
      `3:5 dynamic_code uses 'Function(' (dynamic code is always forbidden under strict)`,
      `4:11 dynamic_code uses 'Function(' (dynamic code is always forbidden under strict)`,
    ]);
  });

  test("even with allow_env and allow_network true", () => {
    expect(lint('eval("1")', { allow_env: true, allow_network: true })).toHaveLength(1);
  });

  test("`Function` as a TypeScript type, `evaluate`, `AsyncFunction` are not calls of eval/Function", () => {
    expect(lint("type F = Function; const cb: Function = x; evaluate(); medieval; myFunction(1);")).toEqual([]);
  });
});

describe("§10 builtins reached around allow_builtins are refused by the lint", () => {
  test("process.getBuiltinModule, process.binding, dlopen", () => {
    expect(lint("a.getBuiltinModule('fs'); b.binding('fs'); c._linkedBinding('x'); d.dlopen(m, f);", { allow_env: true })).toEqual([
      `1:3 allow_builtins uses 'getBuiltinModule' (reaches builtins around "allow_builtins")`,
      `1:28 allow_builtins uses 'binding(' (reaches builtins around "allow_builtins")`,
      `1:45 allow_builtins uses '_linkedBinding(' (reaches builtins around "allow_builtins")`,
      `1:68 allow_builtins uses 'dlopen(' (reaches builtins around "allow_builtins")`,
    ]);
  });
});

describe("§10 the lint lists every violation, in source order", () => {
  test("three rules on three lines: three violations", () => {
    const found = lintModuleText('const k = process.env.K;\nfetch(k);\neval("x");', strict);
    expect(found.map((v) => [v.rule, v.line, v.col])).toEqual([
      ["allow_env", 1, 11],
      ["allow_network", 2, 1],
      ["dynamic_code", 3, 1],
    ]);
  });
});

describe("§10 the bare-Bun rule reads code, not comments (comment-blanking.ts)", () => {
  const cases: [string, string][] = [
    ["a // comment", "a           "],
    ["a /* x\ny */ b", "a     \n     b"],
    ['"// not a comment"', '"// not a comment"'],
    ["`/* ${x} */`", "`/* ${x} */`"],
    ["x = /\\/\\/[/]/; // c", "x = /\\/\\/[/]/;     "],
    ["a / b // c", "a / b     "],
  ];
  for (const [text, blanked] of cases) {
    test(`blanks comments, keeps offsets: ${JSON.stringify(text)}`, () => {
      expect(blankComments(text)).toBe(blanked);
    });
  }
});

describe("§10 import.meta, Worker, self and global: which file targets each rule reads", () => {
  const ESM = { inProcess: true, asPackage: false };
  const ESM_PACKAGE = { inProcess: true, asPackage: true };
  const VM = { inProcess: false, asPackage: false };
  const VM_PACKAGE = { inProcess: false, asPackage: true };
  const rules = (text: string, target: typeof ESM, block = {}) =>
    lintModuleText(text, policyFor(dir, { sandbox: "strict", ...block }), undefined, target).map((v) => `${v.line}:${v.col} ${v.rule}`);

  test("import.meta is accepted only as import.meta.<member> (not env), once per position, in module code of both loaders", () => {
    const text = 'import.meta.url; import.meta.dir;\nimport.meta.env; import.meta["env"]; const { env } = import.meta;';
    expect(rules(text, ESM)).toEqual(["2:1 allow_env", "2:18 allow_env", "2:54 allow_env"]);
    expect(rules(text, VM)).toEqual(["2:1 allow_env", "2:18 allow_env", "2:54 allow_env"]);
    expect(rules(text, ESM_PACKAGE)).toEqual([]);
    expect(rules(text, ESM, { allow_env: true })).toEqual([]);
  });

  test("Worker: module code everywhere, package code of an in-process ES module only, off with worker_threads allowed", () => {
    const text = "new Worker(u); typeof SharedWorker; const worker_threads_free = 1;";
    expect(rules(text, ESM)).toEqual(["1:5 worker", "1:23 worker"]);
    expect(rules(text, VM)).toEqual(["1:5 worker", "1:23 worker"]);
    expect(rules(text, ESM_PACKAGE)).toEqual(["1:5 worker", "1:23 worker"]);
    expect(rules(text, VM_PACKAGE)).toEqual([]);
    expect(rules(text, ESM, { allow_builtins: ["worker_threads"] })).toEqual([]);
  });

  test("self and global: in an in-process ES module's own code only, not as a member, a key or in a comment", () => {
    const text = 'self.x; global["y"];\no.self; o?.global; ({ self: 1, global: 2 }); // self';
    expect(rules(text, ESM)).toEqual(["1:1 allow_env", "1:9 allow_env"]);
    expect(rules(text, VM)).toEqual([]);
    expect(rules(text, ESM_PACKAGE)).toEqual([]);
  });
});
