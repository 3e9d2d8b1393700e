/**
 * The text the checked-program cache adds to the main file's to make its key
 * (`importedTextsForKey`): every file an import may name (docs/language/imports.md), found
 * without parsing, so a cache hit never loads the parser. Collecting and linking the files
 * is `check/imports/`'s.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { builtinModuleText, importedFileName, isImportPath } from "../check/imports/import-paths";

/** `from "…"` anywhere: every import's path matches, so a key built from these misses none. */
const FROM_PATH = /\bfrom\s*"([^"\\\n]*)"/g;

/**
 * The texts of every file the program may import, transitively, as one string for the
 * checked-program cache's key: a change in any imported file is a new key. Found by a
 * scan, not a parse (a hit must not load the parser): every `from "….luma"` of each file,
 * also in comments or strings — reading a file too many only makes the key stricter.
 * Empty for a file that imports nothing.
 */
export function importedTextsForKey(file: string, source: string): string {
  if (!source.includes("import")) return "";
  const seen = new Set<string>([resolve(file)]);
  const parts: string[] = [];
  const scan = (from: string, text: string): void => {
    for (const match of text.matchAll(FROM_PATH)) {
      const path = match[1]!;
      const builtin = builtinModuleText(path);
      if (builtin !== undefined && !seen.has(path)) {
        seen.add(path);
        parts.push(`${path}\0${builtin}`);
      }
      if (!isImportPath(path)) continue;
      const name = importedFileName(from, path);
      const key = resolve(name);
      if (seen.has(key)) continue;
      seen.add(key);
      let imported: string;
      try {
        imported = existsSync(key) ? readFileSync(key, "utf8") : "\0missing";
      } catch {
        imported = "\0unreadable";
      }
      parts.push(`${name}\0${imported}`);
      if (!imported.startsWith("\0")) scan(name, imported);
    }
  };
  scan(file, source);
  return parts.join("\0");
}
