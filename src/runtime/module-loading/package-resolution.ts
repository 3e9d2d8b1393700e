/**
 * Where an npm package specifier (`picocolors`, `@scope/pkg/sub`) leads, resolved by Luma
 * itself as Bun resolves it at run time — because the compiled `dist/luma` (and every built
 * agent) cannot: a standalone Bun executable reads no package.json, so its own `require`,
 * `import` and `Bun.resolveSync` find a package only through `index.js`, and a package whose
 * entry is `main: "picocolors.js"`, an `exports` map or `module` fails with "Cannot find module".
 *
 * The rule (Node's, with Bun's conditions, checked against `bun` itself):
 * - walk up from the importing file's directory: `DIR/node_modules/NAME`, nearest first;
 * - `exports` in the package's package.json wins when present: subpath keys (`"."`,
 *   `"./sub"`, `"./*"` patterns), conditions matched in the map's own order against
 *   `bun`, `node`, `import` or `require` (how the file is loaded), `default`; a subpath it does
 *   not export is not found — no fallback to its files, nor to a package of that name
 *   further up (as in Node and Bun);
 * - otherwise `main`, then `module`, then `index` — each tried as written, with an extension,
 *   and as a directory with an index;
 * - `#name` goes through the `imports` map of the importing file's own package.
 *
 * Only package.json files of `node_modules/NAME` folders on that walk are read — the module's
 * own dependency tree — never one of the working directory or a config of Bun's (bunfig,
 * tsconfig paths). The result is the real path (symlinks resolved, as Bun does), so what the
 * strict checks judge is the file that loads.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isInsideDirectory } from "../../config/inside-directory";

/** How the specifier is loaded: `import`/`import()` or `require`. */
export type ImportKind = "import" | "require";

const CONDITIONS: Record<ImportKind, ReadonlySet<string>> = {
  import: new Set(["bun", "node", "import", "default"]),
  require: new Set(["bun", "node", "require", "default"]),
};

/** Tried in this order after a path as written (`main: "lib/x"` → lib/x.js). */
const EXTENSIONS = [".js", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".json"];

const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() === true;
const isDirectory = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

interface PackageJson {
  main?: unknown;
  module?: unknown;
  exports?: unknown;
  imports?: unknown;
}

function readPackageJson(dir: string): PackageJson | undefined {
  const path = join(dir, "package.json");
  if (!isFile(path)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return parsed !== null && typeof parsed === "object" ? (parsed as PackageJson) : {};
  } catch {
    throw new Error(`Cannot read package ${path}: it is not valid JSON`);
  }
}

/** `path` as a file, with an extension, or as a directory (its package.json `main`, its index). */
function fileOrDirectory(path: string, depth = 0): string | undefined {
  if (isFile(path)) return path;
  for (const ext of EXTENSIONS) if (isFile(path + ext)) return path + ext;
  if (!isDirectory(path) || depth > 2) return undefined;
  const main = readPackageJson(path)?.main;
  const viaMain = typeof main === "string" && main !== "" ? fileOrDirectory(join(path, main), depth + 1) : undefined;
  return viaMain ?? indexOf(path);
}

const indexOf = (dir: string): string | undefined => EXTENSIONS.map((ext) => join(dir, `index${ext}`)).find(isFile);

/**
 * A target of an exports (or imports) map; `null` when the package explicitly maps nothing
 * there. `external`: an imports map may also name a package (`"#dep": "other-pkg"`).
 */
function mapTarget(target: unknown, capture: string | undefined, conditions: ReadonlySet<string>, external: boolean): string | null | undefined {
  if (target === null) return null;
  if (typeof target === "string") {
    const bare = external && !target.startsWith(".") && !target.startsWith("/") && !target.includes(":");
    if (!target.startsWith("./") && !bare) return undefined;
    return capture === undefined ? target : target.replaceAll("*", capture);
  }
  if (Array.isArray(target)) {
    for (const item of target) {
      const found = mapTarget(item, capture, conditions, external);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof target === "object") {
    for (const [condition, value] of Object.entries(target as Record<string, unknown>)) {
      if (!conditions.has(condition)) continue;
      const found = mapTarget(value, capture, conditions, external);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The exports map's answer for `subpath` (`.` or `./x`): a package-relative target, or undefined. */
function exportedPath(exports: unknown, subpath: string, conditions: ReadonlySet<string>): string | undefined {
  const keyed = exports !== null && typeof exports === "object" && !Array.isArray(exports) && Object.keys(exports).some((k) => k.startsWith("."));
  return mappedPath((keyed ? exports : { ".": exports }) as Record<string, unknown>, subpath, conditions, false);
}

/** `map[key]`, or the pattern key (`./features/*.js`, `#internal/*`) that matches it. */
function mappedPath(map: Record<string, unknown>, subpath: string, conditions: ReadonlySet<string>, external: boolean): string | undefined {
  if (Object.hasOwn(map, subpath)) return mapTarget(map[subpath], undefined, conditions, external) ?? undefined;
  // Patterns (`./features/*.js`): the longest matching prefix wins, as in Node and Bun.
  let best: { key: string; capture: string } | undefined;
  for (const key of Object.keys(map)) {
    const star = key.indexOf("*");
    if (star === -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (!subpath.startsWith(prefix) || !subpath.endsWith(suffix) || subpath.length < key.length - 1) continue;
    if (!best || prefix.length > best.key.indexOf("*")) best = { key, capture: subpath.slice(prefix.length, subpath.length - suffix.length) };
  }
  return best ? (mapTarget(map[best.key], best.capture, conditions, external) ?? undefined) : undefined;
}

/**
 * A `#name` specifier: the `imports` map of the importing file's package (the nearest
 * package.json above it) — a file of that package, or another package (chalk's
 * `#ansi-styles`).
 */
function resolveImportsEntry(specifier: string, fromDir: string, kind: ImportKind): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const manifest = basename(dir) === "node_modules" ? undefined : readPackageJson(dir);
    if (manifest !== undefined) {
      const imports = manifest.imports;
      if (imports === null || typeof imports !== "object" || Array.isArray(imports)) return undefined;
      const target = mappedPath(imports as Record<string, unknown>, specifier, CONDITIONS[kind], true);
      if (target === undefined) return undefined;
      if (!target.startsWith("./")) return resolvePackage(target, dir, kind);
      const path = join(dir, target);
      return isInsideDirectory(dir, path) && isFile(path) ? realpathSync(path) : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** `lodash/fp` → [`lodash`, `/fp`]; `@scope/pkg/sub` → [`@scope/pkg`, `/sub`]. */
function splitSpecifier(specifier: string): [string, string] {
  const parts = specifier.split("/");
  const length = specifier.startsWith("@") ? 2 : 1;
  return [parts.slice(0, length).join("/"), parts.length > length ? `/${parts.slice(length).join("/")}` : ""];
}

/** Not found, and the search stops here: a package with `exports` answers for its name. */
const STOP = Symbol("not exported");

/** The entry of the package in `packageDir` for `subpath`; undefined when it has none. */
function entryOf(packageDir: string, subpath: string, kind: ImportKind): string | typeof STOP | undefined {
  const manifest = readPackageJson(packageDir);
  if (manifest?.exports !== undefined) {
    const target = exportedPath(manifest.exports, `.${subpath}`, CONDITIONS[kind]);
    if (target === undefined) return STOP;
    const path = join(packageDir, target);
    // `"./../../x"` would leave the package: not an entry of it.
    return isInsideDirectory(packageDir, path) && isFile(path) ? path : STOP;
  }
  if (subpath !== "") return fileOrDirectory(join(packageDir, subpath));
  for (const field of [manifest?.main, manifest?.module]) {
    if (typeof field !== "string" || field === "") continue;
    const found = fileOrDirectory(join(packageDir, field));
    if (found) return found;
  }
  return indexOf(packageDir);
}

/**
 * Packages found so far, as Node's and Bun's resolvers keep them: a `require` in a handler
 * resolves once, and the strict checks and the loader that follows them get the same file.
 */
const resolved = new Map<string, string>();

/**
 * The real path of the file `specifier` loads from a file in `fromDir`, or undefined when no
 * `node_modules` on the way up holds it. Throws only for a package.json that is not JSON.
 */
export function resolvePackage(specifier: string, fromDir: string, kind: ImportKind): string | undefined {
  const key = `${kind}\0${fromDir}\0${specifier}`;
  const known = resolved.get(key);
  if (known !== undefined) return known;
  const found = lookUp(specifier, fromDir, kind);
  if (found !== undefined) resolved.set(key, found);
  return found;
}

function lookUp(specifier: string, fromDir: string, kind: ImportKind): string | undefined {
  if (specifier.startsWith("#")) return resolveImportsEntry(specifier, fromDir, kind);
  const [name, subpath] = splitSpecifier(specifier);
  if (name === "" || name === "." || name === "..") return undefined;
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== "node_modules") {
      const packageDir = join(dir, "node_modules", name);
      if (isDirectory(packageDir)) {
        const entry = entryOf(packageDir, subpath, kind);
        if (entry === STOP) return undefined;
        if (entry) return realpathSync(entry);
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * A relative or absolute path specifier's file, Bun's way: as written, with an extension, or
 * a directory through its package.json `main` or its index — the directory case being the one
 * the compiled binary's resolver misses. Undefined when there is no such file.
 */
export function resolvePathSpecifier(specifier: string, fromDir: string): string | undefined {
  const found = fileOrDirectory(resolve(fromDir, specifier));
  return found === undefined ? undefined : realpathSync(found);
}

/** Node's message for a package that does not resolve, naming the file that asked. */
export const packageNotFound = (specifier: string, fromFile: string): Error =>
  new Error(`Cannot find package '${specifier}' from '${fromFile}'`);
