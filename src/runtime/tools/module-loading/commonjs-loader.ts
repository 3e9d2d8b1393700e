/**
 * Our own CommonJS loader for `.cjs` / CommonJS `.js` tool modules (spec §10).
 *
 * Why not Bun's `require`: the module's `require` must be ours. It answers "luma" and the
 * legacy `./src/tool-registry` path from memory (no node_modules needed, also in the
 * compiled binary), and it is the one seam where the later strict policy plugs in — a
 * builtin allowlist, resolution confined to the project, and running the wrapper in a
 * `node:vm` context with an explicit list of globals instead of this one.
 *
 * Relative requires of other CommonJS files go through this loader too (one cache per load,
 * so cycles see partial exports as in Node); anything else — builtins, packages, JSON, ESM
 * or TS helpers — is handed to Bun's own `require`.
 */
import { readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, isAbsolute } from "node:path";
import vm from "node:vm";
import { isLumaSpecifier, lumaModuleExports } from "./luma-virtual-module";
import { moduleKindOf } from "./module-kind";

/**
 * The controlled `require`'s hooks. `guard` sees every specifier first and throws to refuse
 * it; `packageBase` is the file bare package specifiers resolve from (dependency_root).
 */
export interface RequirePolicy {
  guard?: (specifier: string) => void;
  packageBase?: string;
}

interface CommonJsModule {
  exports: unknown;
  id: string;
  filename: string;
  loaded: boolean;
}

const WRAPPER_PARAMS = ["exports", "require", "module", "__filename", "__dirname"];

/** Runs `code` as the CommonJS module `file` and returns its `module.exports`. */
export function loadCommonJs(file: string, code: string, policy: RequirePolicy = {}): unknown {
  return run(file, code, { modules: new Map(), policy }).exports;
}

interface LoadState {
  modules: Map<string, CommonJsModule>;
  policy: RequirePolicy;
}

function run(file: string, code: string, state: LoadState): CommonJsModule {
  const module: CommonJsModule = { exports: {}, id: file, filename: file, loaded: false };
  state.modules.set(file, module);
  const wrapper = vm.compileFunction(code, WRAPPER_PARAMS, { filename: file }) as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, makeRequire(file, state), module, file, dirname(file));
  module.loaded = true;
  return module;
}

const isPathSpecifier = (specifier: string): boolean =>
  specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === ".." || isAbsolute(specifier);

function makeRequire(from: string, state: LoadState): NodeJS.Require {
  const native = createRequire(from);
  const forPackages = state.policy.packageBase ? createRequire(state.policy.packageBase) : native;
  const require = ((specifier: string) => {
    state.policy.guard?.(specifier);
    if (isLumaSpecifier(specifier)) return lumaModuleExports;
    if (!isPathSpecifier(specifier)) return isBuiltin(specifier) ? native(specifier) : forPackages(specifier);
    const target = native.resolve(specifier);
    if (!/\.(c?js)$/.test(target) || moduleKindOf(target) !== "cjs") return native(target);
    const cached = state.modules.get(target);
    if (cached) return cached.exports;
    return run(target, readFileSync(target, "utf8"), state).exports;
  }) as NodeJS.Require;
  require.resolve = native.resolve;
  require.cache = native.cache;
  require.main = undefined;
  return require;
}
