/**
 * Package imports of an ES module that Bun's loader runs in-process, pointed at the files
 * Luma resolves (package-resolution.ts) before Bun sees the text: in the compiled `dist/luma`
 * Bun's own resolver reads no package.json, so `import pc from "picocolors"` would fail, and
 * under `sandbox: "strict"` the file the checks judged must be the file that loads.
 *
 * The module's bare specifiers are rewritten to real paths (from `dependency_root` when the
 * entry has one, else from the module's directory). Every ES module JavaScript file reached
 * that way — a package's entry, a relative helper, a package's own files — is served to Bun
 * rewritten the same way (a one-path `Bun.plugin` onLoad), so a package's own packages
 * resolve as Bun would resolve them too; a package that does not resolve fails when it is
 * loaded, naming itself. What is not rewritten: a computed specifier, the
 * imports of a TypeScript helper, and those of a CommonJS package file reached from an ES
 * module (Bun's loader runs those files as they are).
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isPackageSpecifier } from "./dependency-rules";
import { serveFile, serveMissing } from "./esm-loader";
import { moduleKindOf } from "./module-kind";
import { resolvePackage, resolvePathSpecifier } from "./package-resolution";
import { isPathSpecifier } from "./specifier-forms";
import { rewriteSpecifiers } from "./specifier-rewrite";

/** What to do with a package that does not resolve: the specifier to put in its place. */
export type MissingPackage = (specifier: string, fromDir: string) => string;

/**
 * By default, a name whose loading fails naming the package: Bun's own resolver must not get
 * the specifier (it reads no `exports` map in the compiled binary, so it could load a file
 * the package does not export). An optional dependency behind `try { await import(…) }`
 * still fails only when it runs.
 */
const failWhenLoaded: MissingPackage = (specifier, fromDir) => {
  const name = `luma-missing:${fromDir}:${specifier}`;
  serveMissing(name, `Cannot find package '${specifier}' from '${fromDir}'`);
  return name;
};

/** An ES module JavaScript file Bun would load as such (not TypeScript, not CommonJS). */
const isEsmFile = (file: string): boolean => /\.m?js$/.test(file) && moduleKindOf(file) === "esm";

const inNodeModules = (file: string): boolean => /[\\/]node_modules[\\/]/.test(file);

/**
 * `code`, a file of `fromDir`, with its package specifiers pointing at real files. `root`
 * (a `dependency_root`) is where the module's own files resolve packages from; a package's
 * files always resolve from where they are.
 */
export function resolvePackageImports(code: string, fromDir: string, root?: string, missing: MissingPackage = failWhenLoaded): string {
  return rewriteSpecifiers(code, (specifier, kind) => {
    if (isPathSpecifier(specifier)) return relativeTarget(specifier, fromDir, root);
    if (!isPackageSpecifier(specifier)) return undefined;
    const target = resolvePackage(specifier, root ?? fromDir, kind === "require" ? "require" : "import");
    if (target === undefined) return missing(specifier, root ?? fromDir);
    if (isEsmFile(target)) serveEsmFile(target, undefined);
    return target;
  });
}

/**
 * A path specifier: an ES module file it names is served rewritten; a directory (its
 * package.json `main`, its index — which the compiled binary's resolver misses) is replaced by
 * its file. Anything else stays as written (Bun reports a missing file when it loads).
 */
function relativeTarget(specifier: string, fromDir: string, root: string | undefined): string | undefined {
  if (/^file:/i.test(specifier)) return undefined;
  const target = resolvePathSpecifier(specifier, fromDir);
  if (target === undefined) return undefined;
  if (isEsmFile(target)) serveEsmFile(target, inNodeModules(target) ? undefined : root);
  return statSync(resolve(fromDir, specifier), { throwIfNoEntry: false })?.isDirectory() ? target : undefined;
}

const served = new Set<string>();

/** Serves `file` to Bun with its own imports resolved (once per process). */
function serveEsmFile(file: string, root: string | undefined): void {
  if (served.has(file)) return;
  served.add(file);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return;
  }
  serveFile(file, resolvePackageImports(text, dirname(file), root), "js");
}
