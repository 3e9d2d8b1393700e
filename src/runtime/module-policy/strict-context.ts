/**
 * The `node:vm` context CommonJS and TypeScript tool modules run in under strict (spec §10).
 *
 * Its globals are the JavaScript built-ins every context has (Object, Array, Promise, JSON,
 * Math, Reflect, WebAssembly…) plus exactly the host values listed below — not `process`,
 * not `require` beyond the module's own, not `fetch`, not `Buffer`. String-to-code is off
 * inside it (`codeGeneration: { strings: false, wasm: false }`): `eval`, `new Function`,
 * `[].constructor.constructor(…)` throw EvalError there.
 *
 * `Bun` is not the host's object but a frozen object of the context holding the members the
 * policy gives (strict-bun-api.ts): no `plugin`, `build` or `Transpiler`, no `env` without
 * `allow_env`, no sockets without `allow_network`, no files without `fs`.
 *
 * This is not isolation: every other host value in the list, and every member of that `Bun`
 * (`Bun.spawnSync` works), is the host's own, and its `constructor.constructor` is the host's
 * Function. The list says what a module gets handed, not what it can reach.
 */
import vm from "node:vm";
import { visibleEnv, type ModulePolicy } from "./module-policy";
import { strictBun } from "./strict-bun-api";

/** Always present (the spec's list, plus the small Web APIs timers and AbortSignal need). */
export const STRICT_CONTEXT_GLOBALS = [
  "Bun",
  "console",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "setImmediate",
  "clearImmediate",
  "queueMicrotask",
  "URL",
  "URLSearchParams",
  "TextEncoder",
  "TextDecoder",
  "AbortController",
  "AbortSignal",
  "DOMException",
  "structuredClone",
  "crypto",
  "atob",
  "btoa",
] as const;

/** Added with `"allow_network": true`. */
export const NETWORK_CONTEXT_GLOBALS = ["fetch", "Request", "Response", "Headers", "FormData", "Blob", "WebSocket"] as const;

/**
 * Added with `"allow_env": true`: `process` is a small facade, not the process object — a
 * copy of the environment and read-only facts; no `exit`, `kill`, `binding` or
 * `getBuiltinModule` (which would reach builtins around `allow_builtins`).
 */
export const PROCESS_FACADE_KEYS = ["env", "platform", "arch", "version", "versions", "argv", "cwd", "nextTick", "hrtime"] as const;

const host = globalThis as unknown as Record<string, unknown>;

function processFacade(policy: ModulePolicy): Record<string, unknown> {
  return Object.freeze({
    env: visibleEnv(policy, process.env),
    platform: process.platform,
    arch: process.arch,
    version: process.version,
    versions: Object.freeze({ ...process.versions }),
    argv: Object.freeze([...process.argv]),
    cwd: () => process.cwd(),
    nextTick: (fn: (...args: unknown[]) => void, ...args: unknown[]) => process.nextTick(fn, ...args),
    hrtime: process.hrtime,
  });
}

/** Small functions compiled inside the context, so the objects they make belong to it. */
export interface ContextRealm {
  context: vm.Context;
  /** A `module` object of the context's realm: `module.constructor` is the context's Object. */
  makeModule: (id: string) => { exports: unknown; id: string; filename: string; loaded: boolean };
  /** A context function calling `fn`: its `constructor` is the context's Function (no string code). */
  wrapFunction: <F extends (...args: never[]) => unknown>(fn: F, name: string) => F;
  /** JSON.parse of the context (objects of its realm). */
  parseJson: (text: string) => unknown;
}

export function createStrictContext(policy: ModulePolicy, name: string): ContextRealm {
  const sandbox: Record<string, unknown> = Object.create(null);
  for (const key of STRICT_CONTEXT_GLOBALS) if (key !== "Bun") sandbox[key] = host[key];
  if (policy.allowNetwork) for (const key of NETWORK_CONTEXT_GLOBALS) sandbox[key] = host[key];
  if (policy.allowEnv) sandbox.process = processFacade(policy);
  const context = vm.createContext(sandbox, {
    name,
    codeGeneration: { strings: false, wasm: false },
  } as vm.CreateContextOptions);
  const make = vm.runInContext(
    `({
      makeModule: (id) => ({ exports: {}, id, filename: id, loaded: false }),
      wrapFunction: (fn, name) => ({ [name]: function (...args) { return fn.apply(this, args); } })[name],
      parseJson: (text) => JSON.parse(text),
      makeObject: () => ({}),
    })`,
    context,
  ) as Omit<ContextRealm, "context"> & { makeObject: () => object };
  sandbox.Bun = strictBun(policy, make.makeObject);
  return { context, makeModule: make.makeModule, wrapFunction: make.wrapFunction, parseJson: make.parseJson };
}
