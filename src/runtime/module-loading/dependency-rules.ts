/**
 * The manifest's `dependencies` allowlist and `dependency_root` (spec §10).
 *
 * - `dependencies`: the packages a module may import/require. When given, a bare package
 *   specifier not on the list refuses the module, and so does any dynamic `import(…)`
 *   (a computed specifier cannot be checked before it runs).
 * - `dependency_root`: where packages are resolved from, instead of the module's own
 *   directory (config validation already keeps it inside the project).
 *
 * Checked on the module's own transpiled text (specifier literals: `from`, `import`,
 * `require`) before it runs; a CommonJS module's `require` also enforces the list at run
 * time, computed specifiers included. Relative imports and builtins are not packages here
 * (builtins belong to the strict policy's `allow_builtins`).
 */
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { startupError } from "../../diagnostics/luma-error";
import { isLumaSpecifier } from "./luma-virtual-module";
import { hasUrlScheme, isPathSpecifier } from "./specifier-forms";
import { hasDynamicImport, specifiersIn } from "./specifier-rewrite";

export interface DependencyRules {
  /** Allowed package names; undefined when the manifest gives no list (anything goes). */
  allow?: ReadonlySet<string>;
  /** Absolute directory packages are resolved from. */
  root?: string;
}

/** A package specifier: not a path, not a builtin, not "luma", not a URL-ish `scheme:`. */
export const isPackageSpecifier = (specifier: string): boolean =>
  !isPathSpecifier(specifier) && !isLumaSpecifier(specifier) && !isBuiltin(specifier) && !hasUrlScheme(specifier);

/** `lodash/fp` → `lodash`, `@scope/pkg/sub` → `@scope/pkg`. */
export const packageNameOf = (specifier: string): string =>
  specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

const refused = (shownPath: string, why: string) => startupError(`Tool module '${shownPath}' was refused: ${why}`, { catalogCode: "E0502" });

/** Throws when `specifier` names a package outside the allowlist. */
export function assertDependencyAllowed(rules: DependencyRules | undefined, shownPath: string, specifier: string): void {
  if (!rules?.allow || !isPackageSpecifier(specifier)) return;
  const name = packageNameOf(specifier);
  if (!rules.allow.has(name)) {
    throw refused(shownPath, `it imports '${name}', which is not in its 'dependencies' allowlist.`);
  }
}

/** The static check on transpiled text (comments already gone). */
export function checkStaticDependencies(rules: DependencyRules | undefined, shownPath: string, code: string): void {
  if (!rules?.allow) return;
  if (hasDynamicImport(code)) {
    throw refused(shownPath, "dynamic import() is forbidden when the manifest lists 'dependencies'.");
  }
  for (const specifier of specifiersIn(code)) assertDependencyAllowed(rules, shownPath, specifier);
}

/** The file packages are resolved relative to (`createRequire` / `Bun.resolveSync` take a file or dir). */
export const resolutionBase = (rules: DependencyRules | undefined, moduleFile: string): string =>
  rules?.root ? join(rules.root, "__luma_dependency_root__.js") : moduleFile;
