/**
 * Our own CommonJS loader for `.cjs` / CommonJS `.js` tool modules (spec §10), outside the
 * strict policy (module-policy/strict-commonjs-loader.ts is the strict one; both run files
 * through commonjs-wrapper.ts).
 *
 * Why not Bun's `require`: the module's `require` must be ours. It answers "luma" and the
 * legacy `./src/tool-registry` path from memory (no node_modules needed, also in the
 * compiled binary), enforces the manifest's `dependencies` allowlist on every specifier —
 * computed ones included — and resolves packages from `dependency_root`.
 *
 * Relative requires of other CommonJS files go through this loader too (one cache per load,
 * so cycles see partial exports as in Node). A package is resolved by Luma
 * (package-resolution.ts: `main`, `exports`, `module`, as Bun resolves them — the compiled
 * binary's own resolver reads no package.json) and, when it is CommonJS, run by this loader
 * too, with a `require` of its own (no `dependencies` guard: a package's dependencies are its
 * business), so its own packages resolve the same way. Anything else — builtins, JSON, ESM
 * or TS files — is handed to Bun's own `require`, by path.
 */
import { readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname } from "node:path";
import { runCommonJs, type CommonJsHost } from "./commonjs-wrapper";
import { isLumaSpecifier, lumaModuleExports } from "./luma-virtual-module";
import { moduleKindOf } from "./module-kind";
import { packageNotFound, resolvePackage, resolvePathSpecifier } from "./package-resolution";
import { isPathSpecifier } from "./specifier-forms";

/**
 * The controlled `require`'s hooks. `guard` sees every specifier first and throws to refuse
 * it; `packageBase` is the file bare package specifiers resolve from (dependency_root).
 */
export interface RequirePolicy {
  guard?: (specifier: string) => void;
  packageBase?: string;
}

/** Runs `code` as the CommonJS module `file` and returns its `module.exports`. */
export function loadCommonJs(file: string, code: string, policy: RequirePolicy = {}): unknown {
  const host: CommonJsHost = { modules: new Map(), requireOf: (from) => makeRequire(from, host, policy) };
  return runCommonJs(file, code, host);
}

/** Whether Luma's loader runs `file` (a CommonJS JavaScript file) rather than Bun's `require`. */
const runsHere = (file: string): boolean => /\.c?js$/.test(file) && moduleKindOf(file) === "cjs";

function makeRequire(from: string, host: CommonJsHost, policy: RequirePolicy): NodeJS.Require {
  const native = createRequire(from);
  const runFile = (target: string, runHost: CommonJsHost): unknown => {
    if (!runsHere(target)) return native(target);
    const cached = host.modules.get(target);
    if (cached) return cached.exports;
    return runCommonJs(target, readFileSync(target, "utf8"), runHost);
  };
  const requirePackage = (specifier: string): unknown => {
    const target = resolvePackage(specifier, dirname(policy.packageBase ?? from), "require");
    if (target === undefined) throw packageNotFound(specifier, from);
    // The package's files get a require of their own: resolved from where they are, unguarded.
    const packageHost: CommonJsHost = { modules: host.modules, requireOf: (file) => makeRequire(file, packageHost, {}) };
    return runFile(target, packageHost);
  };
  const require = ((specifier: string) => {
    policy.guard?.(specifier);
    if (isLumaSpecifier(specifier)) return lumaModuleExports;
    if (!isPathSpecifier(specifier)) return isBuiltin(specifier) ? native(specifier) : requirePackage(specifier);
    return runFile(resolvePathSpecifier(specifier, dirname(from)) ?? native.resolve(specifier), host);
  }) as NodeJS.Require;
  const resolve = (specifier: string) =>
    isPathSpecifier(specifier)
      ? (resolvePathSpecifier(specifier, dirname(from)) ?? native.resolve(specifier))
      : isBuiltin(specifier) || isLumaSpecifier(specifier)
        ? native.resolve(specifier)
      : (resolvePackage(specifier, dirname(policy.packageBase ?? from), "require") ?? native.resolve(specifier));
  require.resolve = resolve as NodeJS.RequireResolve;
  require.cache = native.cache;
  require.main = undefined;
  return require;
}
