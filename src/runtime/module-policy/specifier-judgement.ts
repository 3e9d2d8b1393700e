/**
 * The one decision table for a module specifier under strict (spec §10), used by the static
 * check at load and by the controlled `require` / dynamic `import()` at call time — so a
 * computed specifier gets exactly the verdict its literal spelling would.
 *
 * | specifier                         | verdict                                              |
 * |-----------------------------------|------------------------------------------------------|
 * | `luma`, legacy `./src/tool-registry` | allowed (served from memory)                      |
 * | `child_process` (any spelling)    | refused, always                                      |
 * | a network builtin (`http`, `net`…) | refused while `allow_network` is false              |
 * | any other builtin (`fs`, `node:fs`, `bun:ffi`) | allowed only when in `allow_builtins`   |
 * | `file:` URL, `./`, `../`, `/abs`  | allowed only when the real path is in the project    |
 * | any other `scheme:` (`data:`, `http:`) | refused                                         |
 * | a package                         | the manifest `dependencies` allowlist, then its real path must be in the project |
 *
 * A package's own imports (`fromPackage`) are the package's business, not the manifest's: the
 * `dependencies` allowlist names what the module imports, and a package's dependencies resolve
 * from the package itself. Every other row holds for them, so the builtin allowlist holds for
 * the whole graph a strict module reaches.
 */
import { isBuiltin } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isLumaSpecifier } from "../module-loading/luma-virtual-module";
import { packageNameOf, type DependencyRules } from "../module-loading/dependency-rules";
import { resolvePackage, resolvePathSpecifier, type ImportKind } from "../module-loading/package-resolution";
import { hasUrlScheme, isPathSpecifier } from "../module-loading/specifier-forms";
import { builtinName, type ModulePolicy } from "./module-policy";
import type { PolicyRule } from "./policy-violation";
import { isInsideDirectory } from "../../config/inside-directory";
import { realPathOf, realProjectDir } from "./project-confinement";

export type Target =
  | { kind: "luma" }
  | { kind: "builtin"; name: string }
  | { kind: "file"; path: string }
  | { kind: "package"; path: string }
  /** Allowed by the policy but not found: the loader reports it as it always does. */
  | { kind: "missing"; specifier: string };

export type Judgement = { ok: true; target: Target } | { ok: false; rule: PolicyRule; message: string };

export interface JudgeScope {
  policy: ModulePolicy;
  rules?: DependencyRules;
}

/** Builtins that open connections or listen; refused while `allow_network` is false, listed or not. */
export const NETWORK_BUILTINS: ReadonlySet<string> = new Set([
  "http", "https", "http2", "net", "tls", "dgram", "dns", "dns/promises", "undici", "ws",
  "_http_agent", "_http_client", "_http_common", "_http_incoming", "_http_outgoing", "_http_server", "_tls_common", "_tls_wrap",
]);

const shown = (specifier: string): string => (specifier.length > 60 ? `${specifier.slice(0, 57)}…` : specifier);
const no = (rule: PolicyRule, message: string): Judgement => ({ ok: false, rule, message });

/** `kind`: how the specifier is loaded — a package's `exports` map answers `import` and `require` apart. */
export function judgeSpecifier(scope: JudgeScope, specifier: string, fromFile: string, fromPackage = false, kind: ImportKind = "import"): Judgement {
  if (isLumaSpecifier(specifier)) return { ok: true, target: { kind: "luma" } };
  if (/^file:/i.test(specifier)) {
    let path: string;
    try {
      path = fileURLToPath(specifier);
    } catch {
      return no("project_dir", `loads '${shown(specifier)}', which is not a file URL Luma can read`);
    }
    return judgePath(scope, specifier, path);
  }
  if (specifier.startsWith("node:") || specifier.startsWith("bun:") || (isBuiltin(specifier) && !isPathSpecifier(specifier))) {
    return judgeBuiltin(scope.policy, specifier);
  }
  if (hasUrlScheme(specifier)) {
    return no("project_dir", `loads '${shown(specifier)}' (only files of the project, allowed builtins and packages load under strict)`);
  }
  if (isPathSpecifier(specifier)) return judgePath(scope, specifier, resolve(dirname(fromFile), specifier), fromFile);
  return judgePackage(scope, specifier, fromFile, fromPackage, kind);
}

function judgeBuiltin(policy: ModulePolicy, specifier: string): Judgement {
  const name = builtinName(specifier);
  if (name === "child_process" || name.startsWith("child_process/")) {
    return no("child_process", `loads '${specifier}' (child_process is always forbidden under strict)`);
  }
  if (!policy.allowNetwork && NETWORK_BUILTINS.has(name)) {
    return no("allow_network", `loads '${specifier}' ("allow_network" is false)`);
  }
  if (!policy.allowBuiltins.has(name)) {
    return no("allow_builtins", `loads builtin '${specifier}', which is not in "allow_builtins"`);
  }
  return { ok: true, target: { kind: "builtin", name } };
}

const outside = (specifier: string, path: string, projectDir: string): Judgement =>
  no("project_dir", `loads '${shown(specifier)}', which resolves to ${path}, outside the project directory ${projectDir}`);

function judgePath(scope: JudgeScope, specifier: string, lexical: string, fromFile?: string): Judgement {
  const projectDir = realProjectDir(scope.policy.projectDir);
  if (!isInsideDirectory(projectDir, lexical)) return outside(specifier, lexical, projectDir);
  // Luma's path resolution, the loaders' own (a directory through its package.json `main` too),
  // then Bun's (which also maps `./x.js` to `./x.ts`).
  const [path, base] = fromFile === undefined ? [lexical, projectDir] : [specifier, dirname(fromFile)];
  let resolved = resolvePathSpecifier(path, base);
  if (resolved === undefined) {
    try {
      resolved = Bun.resolveSync(path, base);
    } catch {
      return { ok: true, target: { kind: "missing", specifier } };
    }
  }
  const real = realPathOf(resolved);
  if (!isInsideDirectory(projectDir, real)) return outside(specifier, real, projectDir);
  return { ok: true, target: { kind: "file", path: real } };
}

function judgePackage(scope: JudgeScope, specifier: string, fromFile: string, fromPackage: boolean, kind: ImportKind): Judgement {
  const name = packageNameOf(specifier);
  if (!fromPackage && scope.rules?.allow && !scope.rules.allow.has(name)) {
    return no("dependencies", `loads package '${name}', which is not in its "dependencies" allowlist`);
  }
  const base = (!fromPackage && scope.rules?.root) || dirname(fromFile);
  // Luma's resolution (main, exports, module — as Bun resolves them), the one the loaders use:
  // what is judged here is the file that loads.
  let resolved: string | undefined;
  try {
    resolved = resolvePackage(specifier, base, kind);
  } catch (e) {
    return no("project_dir", `loads package '${packageNameOf(specifier)}': ${(e as Error).message}`);
  }
  if (resolved === undefined) return { ok: true, target: { kind: "missing", specifier } };
  const projectDir = realProjectDir(scope.policy.projectDir);
  const real = realPathOf(resolved);
  if (!isInsideDirectory(projectDir, real)) return outside(specifier, real, projectDir);
  return { ok: true, target: { kind: "package", path: real } };
}
