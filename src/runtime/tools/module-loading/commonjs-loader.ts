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
 * so cycles see partial exports as in Node); anything else — builtins, packages, JSON, ESM
 * or TS helpers — is handed to Bun's own `require`.
 */
import { readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { runCommonJs, type CommonJsHost } from "./commonjs-wrapper";
import { isLumaSpecifier, lumaModuleExports } from "./luma-virtual-module";
import { moduleKindOf } from "./module-kind";
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

function makeRequire(from: string, host: CommonJsHost, policy: RequirePolicy): NodeJS.Require {
  const native = createRequire(from);
  const forPackages = policy.packageBase ? createRequire(policy.packageBase) : native;
  const require = ((specifier: string) => {
    policy.guard?.(specifier);
    if (isLumaSpecifier(specifier)) return lumaModuleExports;
    if (!isPathSpecifier(specifier)) return isBuiltin(specifier) ? native(specifier) : forPackages(specifier);
    const target = native.resolve(specifier);
    if (!/\.(c?js)$/.test(target) || moduleKindOf(target) !== "cjs") return native(target);
    const cached = host.modules.get(target);
    if (cached) return cached.exports;
    return runCommonJs(target, readFileSync(target, "utf8"), host);
  }) as NodeJS.Require;
  require.resolve = native.resolve;
  require.cache = native.cache;
  require.main = undefined;
  return require;
}
