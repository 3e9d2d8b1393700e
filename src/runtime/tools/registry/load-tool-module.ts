/**
 * Loads one tool module file (spec §10): resolve, check integrity against the bytes, check
 * syntax and the dependency allowlist on the transpiled text, then run it as CommonJS (our
 * loader) or ESM (Bun's loader). What was checked is exactly what runs: the bytes are read
 * once and the loaders are handed that text, never the path to read again.
 *
 * Under `sandbox: "strict"` the module must be a file of the project, and after integrity
 * the strict loader (runtime/module-policy/) takes over: its checks replace the dependency
 * check here (they include it, listing every violation), and CommonJS/TypeScript run in its
 * VM context instead of this process's globals.
 *
 * It lives in the registry, not in module-loading/: it is where the loaders' pieces
 * (module-loading/) and the strict policy built on those pieces (module-policy/) meet, so it
 * stands above both and neither of them imports the other back.
 */
// Sync fs on purpose: node:fs/promises costs ~2.5 ms of start-up in the compiled binary.
import { readFileSync, realpathSync } from "node:fs";
import { dirname, extname } from "node:path";
import { loadCommonJs } from "../../module-loading/commonjs-loader";
import { assertDependencyAllowed, checkStaticDependencies, resolutionBase, type DependencyRules } from "../../module-loading/dependency-rules";
import { loadEsm } from "../../module-loading/esm-loader";
import { checkIntegrity } from "../../module-loading/integrity";
import type { LoadedModule, ModuleRequest } from "../../module-loading/loaded-module";
import { moduleLoadFailure, moduleNotFound, moduleSyntaxError, unsupportedFileType } from "../../module-loading/load-failure";
import { installLumaModule } from "../../module-loading/luma-virtual-module";
import { isSupportedExtension, moduleKindOf } from "../../module-loading/module-kind";
import { prepareSource, type PreparedSource } from "../../module-loading/prepare-source";
import { resolvePackageImports } from "../../module-loading/esm-package-imports";
import type { ModulePolicy } from "../../module-policy/module-policy";
import type { StrictModuleInput } from "../../module-policy/load-strict-module";
import { assertInsideProject } from "../../module-policy/module-file-confinement";

/** The strict loader (its checks, its VM context) is imported only when a policy is strict. */
const loadStrict = async (input: StrictModuleInput): Promise<unknown> =>
  (await import("../../module-policy/load-strict-module")).loadStrictModule(input);

/** The real path of the request's file; a missing file is a startup error naming it. */
export async function resolveModuleFile(request: ModuleRequest): Promise<string> {
  try {
    return realpathSync(request.absPath);
  } catch {
    throw moduleNotFound(request.shownPath, request.absPath);
  }
}

export const dependencyRulesOf = (request: ModuleRequest): DependencyRules | undefined => {
  const allow = request.entry?.dependencies;
  if (!allow && !request.dependencyRoot) return undefined;
  return { allow: allow ? new Set(allow) : undefined, root: request.dependencyRoot };
};

/**
 * Loads `realPath` for the requests naming it (one or more spellings of the same file, whose
 * metadata already agree). Every request's `integrity` is checked before anything runs.
 */
export async function loadToolModule(
  realPath: string,
  requests: ModuleRequest[],
  policy?: ModulePolicy,
  env: Record<string, string | undefined> = process.env,
): Promise<LoadedModule> {
  const [first] = requests;
  const shown = first.shownPath;
  if (!isSupportedExtension(realPath)) throw unsupportedFileType(shown, extname(realPath));
  const strict = policy?.strict ? policy : undefined;
  if (strict) assertInsideProject(strict, shown, realPath);

  const bytes = readFileSync(realPath);
  for (const request of requests) {
    if (request.entry?.integrity) checkIntegrity(request.shownPath, bytes, request.entry.integrity);
  }

  const kind = moduleKindOf(realPath);
  const raw = new TextDecoder().decode(bytes);
  let prepared: PreparedSource;
  try {
    prepared = prepareSource(kind, raw);
  } catch (e) {
    throw moduleSyntaxError(shown, e);
  }
  const rules = dependencyRulesOf(requests.find((r) => r.entry) ?? first);
  if (!strict) checkStaticDependencies(rules, shown, prepared.transpiled);
  const entry = requests.find((r) => r.entry)?.entry;
  const version = requests.find((r) => r.entry?.version)?.entry?.version;
  if (strict?.tier === "process") {
    const { loadProcessModule } = await import("../process-host/load-process-module");
    const hosted = await loadProcessModule({ policy: strict, rules, shownPath: shown, realPath, kind, raw, prepared, env });
    return { shownPath: shown, realPath, kind, version, entry, ...hosted };
  }

  installLumaModule();
  // Package imports point at the files Luma resolves (module-loading/esm-package-imports.ts), from
  // dependency_root when there is one. TypeScript goes to Bun as TypeScript (its source map
  // keeps the file's lines in a stack), except under a dependency_root: its package rewrite
  // must not see `import type` lines, which name packages that need not exist at run time,
  // so it reads the transpiled text.
  const moduleDir = dirname(realPath);
  const inProcessEsm = () =>
    rules?.root
      ? loadEsm(realPath, resolvePackageImports(prepared.code, moduleDir, rules.root, missingFromRoot(rules.root)))
      : prepared.typescript !== undefined
        ? loadEsm(realPath, resolvePackageImports(prepared.typescript, moduleDir), "ts")
        : loadEsm(realPath, resolvePackageImports(prepared.code, moduleDir));
  let exports: unknown;
  try {
    exports = strict
      ? await loadStrict({ policy: strict, rules, shownPath: shown, realPath, kind, raw, prepared, loadInProcess: inProcessEsm })
      : prepared.runAs === "cjs"
        ? loadCommonJs(realPath, prepared.code, {
            guard: (specifier) => assertDependencyAllowed(rules, shown, specifier),
            packageBase: rules?.root ? resolutionBase(rules, realPath) : undefined,
          })
        : await inProcessEsm();
  } catch (e) {
    if ((e as { phase?: unknown }).phase === "startup") throw e; // already one of ours (a refused require)
    throw moduleLoadFailure(shown, e);
  }

  return { shownPath: shown, realPath, kind, version, entry, exports };
}

/** Under a dependency_root a package it does not hold is an error naming the root. */
const missingFromRoot = (root: string) => (specifier: string): never => {
  throw new Error(`Cannot find package '${specifier}' in dependency_root ${root}`);
};
