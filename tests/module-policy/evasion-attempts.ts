/**
 * The evasion attempts against the strict policy, each pinned to what happens under
 * `"strict"` today: refused at load, blocked when it runs, not reachable, or a KNOWN GAP —
 * something strict does not stop, listed in docs/modules.md, "Known gaps". Two tables read
 * it: evasions.test.ts (under strict, in-process) and process-evasions.test.ts (the same
 * attempts under `"process"`, through dist/luma, where each gap must fail to reach its target).
 */
import type { ToolModulePolicy } from "../../src/config/config-types";

export type Outcome =
  /** The module never runs: a startup error with this text. */
  | { refusedAtLoad: string }
  /** It loads; the attempt throws when it runs. */
  | { blockedAtRun: string }
  /** It loads and runs; what it tried to reach is not there. */
  | { notReachable: unknown }
  /** It loads, runs and gets what it wanted: strict does not stop this (docs/modules.md: known gaps). */
  | { knownGap: unknown };

export interface Attempt {
  name: string;
  file: string;
  source: string;
  policy?: ToolModulePolicy;
  input?: unknown;
  outcome: Outcome;
}

const cjs = (body: string) => `module.exports = { probe: ${body} };`;

export const ATTEMPTS: Attempt[] = [
  // ── what the lint catches (spellings) ──
  { name: "\\u0070rocess (unicode escape)", file: "m.cjs", source: cjs("() => \\u0070rocess.env"), outcome: { refusedAtLoad: "1:33 [allow_env] mentions 'process'" } },
  { name: 'globalThis["pro" + "cess"]', file: "m.cjs", source: cjs('() => globalThis["pro" + "cess"]'), outcome: { refusedAtLoad: "[allow_env] mentions 'globalThis'" } },
  { name: "globalThis.fe\\u0074ch (escape in a network word)", file: "m.cjs", source: cjs("() => globalThis.fe\\u0074ch"), outcome: { refusedAtLoad: "[allow_network] mentions 'fetch'" } },
  { name: "(0, eval)(…) indirect eval", file: "m.cjs", source: cjs('() => (0, eval)("1")'), outcome: { refusedAtLoad: "[dynamic_code] uses 'eval'" } },
  { name: "new Function(…)", file: "m.ts", source: 'export const probe = () => new Function("return 1")();', outcome: { refusedAtLoad: "[dynamic_code] uses 'Function('" } },
  { name: "Bun.fetch", file: "m.cjs", source: cjs('() => Bun.fetch("http://127.0.0.1:9")'), outcome: { refusedAtLoad: "[allow_network] mentions 'fetch'" } },
  { name: "Bun.env", file: "m.cjs", source: cjs("() => Bun.env.PATH"), outcome: { refusedAtLoad: "[allow_env] mentions 'Bun.env'" } },
  { name: "process.getBuiltinModule with allow_env (ESM, real process)", file: "m.mjs", source: 'export const probe = () => process.getBuiltinModule("child_" + "process");', policy: { sandbox: "strict", allow_env: true }, outcome: { refusedAtLoad: "[allow_builtins] uses 'getBuiltinModule'" } },
  { name: "false positive: 'process' in a comment", file: "m.cjs", source: "// no process access here\n" + cjs("() => 1"), outcome: { refusedAtLoad: "1:7 [allow_env] mentions 'process'" } },
  { name: "false positive: 'process' in a string", file: "m.cjs", source: cjs('() => "process"'), outcome: { refusedAtLoad: "[allow_env] mentions 'process'" } },
  { name: "not a false positive: child_process named in a comment and a variable", file: "m.cjs", source: "// child_process is not used\nconst child_process_free = true;\n" + cjs("() => child_process_free"), outcome: { notReachable: true } },

  // ── specifiers (enforced, also when computed) ──
  { name: 'require("f" + "s") (constant-folded)', file: "m.cjs", source: cjs('() => require("f" + "s")'), outcome: { refusedAtLoad: "[allow_builtins] loads builtin 'fs'" } },
  { name: "require(computed child_process) at call time", file: "m.cjs", source: cjs('() => require(["chi", "ld_pro", "cess"].join(""))'), outcome: { blockedAtRun: "[child_process] loads 'child_process'" } },
  { name: 'import("data:…")', file: "m.cjs", source: cjs('() => import("data:text/javascript,export default 1")'), outcome: { refusedAtLoad: "[project_dir] loads 'data:text/javascript,export default 1'" } },
  { name: "import(computed data: URL) at call time", file: "m.ts", source: 'export const probe = () => import(["data:text/javascript", "export default 1"].join(","));', outcome: { blockedAtRun: "[project_dir] loads 'data:text/javascript,export default 1'" } },
  { name: "import x = require(…) (TypeScript)", file: "m.ts", source: 'import fs = require("node:fs");\nexport const probe = () => fs;', outcome: { refusedAtLoad: "[allow_builtins] loads builtin 'node:fs'" } },
  { name: "ESM: require aliased to a variable", file: "m.mjs", source: 'const r = require;\nexport const probe = () => r("fs");', outcome: { refusedAtLoad: "[computed_specifier] uses 'require' other than as require(\"literal\")" } },
  { name: "ESM: import.meta.require(computed)", file: "m.mjs", source: 'export const probe = () => import.meta.require(["f", "s"].join(""));', outcome: { refusedAtLoad: "[computed_specifier] computes the specifier of require()" } },

  // ── what the VM context blocks (CommonJS / TypeScript) ──
  { name: "sloppy this['pro' + 'cess'] (the context's global)", file: "m.cjs", source: cjs('function () { return String((function () { return this; })()["pro" + "cess"]); }'), outcome: { notReachable: "undefined" } },
  { name: "[].constructor.constructor(…) (the context's Function)", file: "m.cjs", source: cjs('() => [].constructor.constructor("return 1")()'), outcome: { blockedAtRun: "Code generation from strings disallowed" } },
  { name: "Reflect.construct(Function, …)", file: "m.cjs", source: cjs('() => Reflect.construct(Function, ["return 1"])()'), outcome: { blockedAtRun: "Code generation from strings disallowed" } },
  { name: "(async () => {}).constructor(…)", file: "m.ts", source: 'export const probe = () => (async () => {}).constructor("return 1");', outcome: { blockedAtRun: "Code generation from strings disallowed" } },
  { name: "require.constructor(…) (require is a function of the context)", file: "m.cjs", source: cjs('() => require.constructor("return 1")()'), outcome: { blockedAtRun: "Code generation from strings disallowed" } },
  { name: "setTimeout with a string", file: "m.cjs", source: cjs('() => setTimeout("1", 0)'), outcome: { blockedAtRun: "setTimeout expects a function" } },
  { name: "WebAssembly.compile", file: "m.cjs", source: cjs("() => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))"), outcome: { blockedAtRun: "Wasm code generation disallowed" } },
  { name: "require.cache", file: "m.cjs", source: cjs("() => typeof require.cache"), outcome: { notReachable: "undefined" } },
  { name: "module.constructor._load", file: "m.cjs", source: cjs("() => typeof module.constructor._load"), outcome: { notReachable: "undefined" } },
  { name: "arguments.callee.caller", file: "m.cjs", source: cjs("function () { return arguments.callee.caller; }"), outcome: { notReachable: null } },
  { name: "Buffer (a host global not on the list)", file: "m.cjs", source: cjs("() => typeof Buffer"), outcome: { notReachable: "undefined" } },

  // ── Bun's own API (the strict Bun: src/runtime/module-policy/strict-bun-api.ts) ──
  { name: "Bun.plugin (would rewrite other modules at load)", file: "m.cjs", source: cjs("() => Bun.plugin({ name: 'x', setup() {} })"), outcome: { refusedAtLoad: "[bun_api] uses 'Bun.plugin' (strict modules do not get it)" } },
  { name: 'Bun["plu" + "gin"] in the VM context', file: "m.cjs", source: cjs('() => typeof Bun["plu" + "gin"]'), outcome: { notReachable: "undefined" } },
  { name: 'Bun["en" + "v"] in the VM context', file: "m.cjs", source: cjs('() => typeof Bun["en" + "v"]'), outcome: { notReachable: "undefined" } },
  { name: "Bun.build / Bun.Transpiler (run plugins and macros)", file: "m.ts", source: "export const probe = () => [Bun.build, Bun.Transpiler];", outcome: { refusedAtLoad: "[bun_api] uses 'Bun.build'" } },
  { name: "Bun.file without fs", file: "m.cjs", source: cjs('async () => (await Bun.file("/etc/passwd").exists())'), outcome: { refusedAtLoad: "[bun_api] uses 'Bun.file' (strict modules only get it with \"fs\" in \"allow_builtins\")" } },
  { name: 'Bun["wri" + "te"] without fs', file: "m.cjs", source: cjs('() => typeof Bun["wri" + "te"]'), outcome: { notReachable: "undefined" } },
  { name: "Bun.connect without allow_network", file: "m.cjs", source: cjs("() => typeof Bun.connect"), outcome: { refusedAtLoad: "[bun_api] uses 'Bun.connect' (strict modules only get it with \"allow_network\": true)" } },
  { name: "Bun.serve / Bun.listen / Bun.sql computed, without allow_network", file: "m.cjs", source: cjs('() => ["ser" + "ve", "lis" + "ten", "s" + "ql", "udp" + "Socket"].map((k) => typeof Bun[k]).join()'), outcome: { notReachable: "undefined,undefined,undefined,undefined" } },
  { name: "Bun.FFI without bun:ffi", file: "m.cjs", source: cjs('() => typeof Bun["FF" + "I"]'), outcome: { notReachable: "undefined" } },
  { name: "Bun.constructor is the context's Object (string code off)", file: "m.cjs", source: cjs('() => Object.getPrototypeOf(Bun).constructor.constructor("return 1")()'), outcome: { blockedAtRun: "Code generation from strings disallowed" } },
  { name: "TypeScript: a Bun type (Bun.Subprocess) is not a member access", file: "m.ts", source: "export const probe = (): string => typeof (undefined as Bun.Subprocess | undefined);", outcome: { notReachable: "undefined" } },
  { name: "ESM: Bun.<a name off the list> is refused", file: "m.mjs", source: "export const probe = () => Bun.unsafe;", outcome: { refusedAtLoad: "[bun_api] uses 'Bun.unsafe' (strict modules do not get it)" } },
  { name: "Bun.env with allow_env is there", file: "m.cjs", policy: { sandbox: "strict", allow_env: true }, source: cjs("() => typeof Bun.env.PATH"), outcome: { notReachable: "string" } },
  { name: "Bun.env with allow_env is a copy: writing it leaves Luma's environment alone", file: "m.cjs", policy: { sandbox: "strict", allow_env: true }, source: cjs('() => { try { Bun.env.LUMA_POLICY_PROBE = "x"; } catch {} return String(Bun.env.LUMA_POLICY_PROBE); }'), outcome: { notReachable: "undefined" } },
  { name: "ESM: Bun.plugin", file: "m.mjs", source: "export const probe = () => Bun.plugin({ name: 'x', setup() {} });", outcome: { refusedAtLoad: "[bun_api] uses 'Bun.plugin'" } },
  { name: 'ESM: Bun["plugin"] (computed access on the real Bun)', file: "m.mjs", source: 'export const probe = () => Bun["plugin"];', outcome: { refusedAtLoad: "[bun_api] uses 'Bun' other than as Bun.<member>" } },
  { name: "ESM: const { plugin } = Bun", file: "m.mjs", source: "const { plugin } = Bun;\nexport const probe = () => plugin;", outcome: { refusedAtLoad: "1:20 [bun_api] uses 'Bun' other than as Bun.<member>" } },
  { name: "ESM: 'Bun' in a comment and typeof Bun are not accesses", file: "m.mjs", source: "// loaded by Bun itself, /* Bun */\nexport const probe = () => typeof Bun;", outcome: { notReachable: "object" } },
  { name: "ESM: a comment opener inside a string does not hide Bun[…]", file: "m.mjs", source: 'const s = "/*";\nexport const probe = () => Bun["plugin"]; // */', outcome: { refusedAtLoad: "2:28 [bun_api] uses 'Bun' other than as Bun.<member>" } },
  { name: "ESM: Bun/**/.plugin (a comment between the words)", file: "m.mjs", source: "export const probe = () => Bun/**/.plugin;", outcome: { refusedAtLoad: "[bun_api] uses 'Bun.plugin'" } },
  { name: 'ESM: import { plugin } from "bun"', file: "m.mjs", source: 'import { plugin } from "bun";\nexport const probe = () => plugin;', outcome: { refusedAtLoad: "[allow_builtins] loads builtin 'bun', which is not in \"allow_builtins\"" } },
  // ── what Bun would load or run around the checks (import attributes, workers, import.meta) ──
  { name: 'ESM: import … with { type: "js" } (a .json file run as code)', file: "m.mjs", source: 'import v from "./d.json" with { type: "js" };\nexport const probe = () => v;', outcome: { refusedAtLoad: "1:10 [import_attributes] loads './d.json' with { type: \"js\" }" } },
  { name: 'import("./d.json", { with: { type: "sqlite" } })', file: "m.ts", source: 'export const probe = () => import("./d.json", { with: { type: "sqlite" } });', outcome: { refusedAtLoad: "[import_attributes] passes import() options" } },
  { name: "ESM: new Worker(…) (a script no check reads)", file: "m.mjs", source: 'export const probe = () => new Worker("./w.js");', outcome: { refusedAtLoad: "[worker] uses 'Worker'" } },
  { name: 'ESM: import.meta["env"]', file: "m.mjs", source: 'export const probe = () => typeof import.meta["env"];', outcome: { refusedAtLoad: "[allow_env] uses 'import.meta' other than as import.meta.<member>" } },
  { name: "ESM: const { env } = import.meta", file: "m.mjs", source: "const { env } = import.meta;\nexport const probe = () => typeof env;", outcome: { refusedAtLoad: "1:17 [allow_env] uses 'import.meta' other than as import.meta.<member>" } },
  { name: "ESM: import.meta?.env", file: "m.mjs", source: "export const probe = () => typeof import.meta?.env;", outcome: { refusedAtLoad: "[allow_env] mentions 'import.meta?.env'" } },
  { name: 'ESM: self["pro" + "cess"] (self is the real globalThis)', file: "m.mjs", source: 'export const probe = () => typeof self["pro" + "cess"].env;', outcome: { refusedAtLoad: "1:35 [allow_env] mentions 'self'" } },
  { name: "ESM: global (a member or a key named self is not refused)", file: "m.mjs", source: 'const o = { self: 1 };\nexport const probe = () => o.self + typeof global["pro" + "cess"];', outcome: { refusedAtLoad: "2:44 [allow_env] mentions 'global'" } },
  { name: "CommonJS: self is not there (the VM context has no such global)", file: "m.cjs", source: cjs("() => typeof self"), outcome: { notReachable: "undefined" } },
  { name: "ESM: Bun.spawnSync stays (the honest contract)", file: "m.mjs", source: 'export const probe = () => Bun.spawnSync(["true"]).exitCode;', outcome: { knownGap: 0 } },

  // ── KNOWN GAPS: strict runs these (docs/modules.md "Known gaps") ──
  { name: "GAP Bun.spawnSync (the honest contract)", file: "m.cjs", source: cjs('() => Bun.spawnSync(["true"]).exitCode'), outcome: { knownGap: 0 } },
  { name: "GAP Bun.spawn", file: "m.ts", source: 'export const probe = async () => await Bun.spawn(["true"]).exited;', outcome: { knownGap: 0 } },
  { name: "GAP host Function through a Bun member (Bun.spawnSync.constructor)", file: "m.cjs", source: cjs('() => typeof Bun.spawnSync.constructor("return pro" + "cess")()'), outcome: { knownGap: "object" } },
  { name: "GAP the handler's own input leads to the host Function", file: "m.cjs", source: cjs('(input) => typeof input.constructor.constructor("return pro" + "cess")()'), input: {}, outcome: { knownGap: "object" } },
  { name: "GAP the host Function hands back the real Bun, plugin included", file: "m.cjs", source: cjs('() => typeof Bun.spawnSync.constructor("return Bu" + "n.plu" + "gin")()'), outcome: { knownGap: "function" } },
  { name: "GAP ESM with allow_env: globalThis[\"B\" + \"un\"] is the real Bun", file: "m.mjs", policy: { sandbox: "strict", allow_env: true }, source: 'export const probe = () => typeof globalThis["B" + "un"]["plu" + "gin"];', outcome: { knownGap: "function" } },
  { name: "GAP with \"fs\" allowed, Bun.file reads any file (as fs does)", file: "m.cjs", policy: { sandbox: "strict", allow_builtins: ["fs"] }, source: cjs('async () => (await Bun.file("/etc/passwd").exists())'), outcome: { knownGap: true } },
  { name: 'GAP ESM with allow_env: globalThis["Wor" + "ker"] is the real Worker', file: "m.mjs", policy: { sandbox: "strict", allow_env: true }, source: 'export const probe = () => typeof globalThis["Wor" + "ker"];', outcome: { knownGap: "function" } },
  { name: "GAP ESM: the real Function reads the environment with allow_env: false", file: "m.mjs", source: 'export const probe = () => typeof [].constructor.constructor("return pro" + "cess")().env;', outcome: { knownGap: "object" } },
  { name: "GAP ESM under strict sees the real globals (Function, Buffer)", file: "m.mjs", source: 'export const probe = () => typeof [].constructor.constructor("return Buf" + "fer")();', outcome: { knownGap: "function" } },
];
