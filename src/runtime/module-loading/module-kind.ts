/**
 * How a tool module file is loaded, decided by its extension and — for `.js` — by the
 * nearest package.json's `"type"` (spec §10 file-type table, Node's rule for `.js`).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";

export type ModuleKind = "ts" | "cjs" | "esm";

/** Extension → kind; `undefined` for `.js`, whose kind the package scope decides. */
const KIND_BY_EXTENSION: Record<string, ModuleKind | undefined> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cjs": "cjs",
  ".mjs": "esm",
  ".js": undefined,
};

export const SUPPORTED_EXTENSIONS = Object.keys(KIND_BY_EXTENSION);

export const isSupportedExtension = (file: string): boolean => Object.hasOwn(KIND_BY_EXTENSION, extname(file));

/** The kind a file loads as; callers check `isSupportedExtension` first. */
export function moduleKindOf(file: string): ModuleKind {
  const ext = extname(file);
  const byExtension = KIND_BY_EXTENSION[ext];
  if (byExtension) return byExtension;
  if (ext === ".js") return packageTypeOf(dirname(file)) === "module" ? "esm" : "cjs";
  // Other files reached through a relative require (.json, .node…) are Node's business.
  return "cjs";
}

/** The `"type"` of the nearest package.json above `dir`, as Node finds it. */
function packageTypeOf(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const manifest = join(current, "package.json");
    if (existsSync(manifest)) {
      try {
        const type = (JSON.parse(readFileSync(manifest, "utf8")) as { type?: unknown }).type;
        return typeof type === "string" ? type : undefined;
      } catch {
        return undefined; // an unreadable manifest declares nothing, as in Node
      }
    }
    if (dirname(current) === current) return undefined;
  }
}
