/**
 * Reading a program's files: the main file's `import` lines, the files they name, theirs,
 * and so on — each read and parsed once (docs/language/imports.md). A path is relative to
 * the file that writes it and ends in `.luma` (E1001); a file that cannot be read is E1002
 * and a file that imports itself, directly or through others, E1004 — each reported at the
 * import's path, in the importing file. What the names mean is decided after, by the
 * linker (`check/imports/link-program.ts`).
 *
 * A file is named in spans as the importing file's name joined with the path
 * (`examples/lib/orders.luma` for `"./lib/orders.luma"` in `examples/main.luma`), so every
 * message points at a path the user can open from where they ran the command.
 *
 * Also here: the text the checked-program cache adds to the main file's to make its key
 * (`importedTextsForKey`): every file an import may name, found without parsing.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { error } from "../diagnostics/diagnostic";
import { importMessages as m } from "../check/imports/import-messages";
import type { ParsedFile } from "../check/imports/link-program";
import type { Program } from "../syntax/ast";

/** How a file's text is read (and kept for rendering); throws as `readFileSync` does. */
export type ReadText = (file: string) => string;

/** The file an import path names, as spans will name it. */
export const importedFileName = (importer: string, path: string): string => join(dirname(importer), path);

/** Whether an import path has the allowed shape: relative, ending in `.luma`. */
export const isImportPath = (path: string): boolean => /^\.\.?\//.test(path) && path.endsWith(".luma");

/**
 * Every file of the program, the main one first, then each in the order first imported
 * (depth first). Syntax errors of an imported file throw (as the main file's do); import
 * errors are returned, with the files that could be read.
 */
export async function loadImportGraph(
  main: Program, read: ReadText, parse: (file: string, source: string) => Promise<Program>,
): Promise<{ files: ParsedFile[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const first: ParsedFile = { file: main.file, program: main, targets: [] };
  const byKey = new Map<string, ParsedFile>([[resolve(main.file), first]]);
  const files: ParsedFile[] = [first];

  const visit = async (pf: ParsedFile, stack: string[]): Promise<void> => {
    for (const line of pf.program.imports ?? []) {
      pf.targets.push(undefined);
      const slot = pf.targets.length - 1;
      if (!isImportPath(line.path)) {
        diagnostics.push(error(m.importPath(line.path), line.pathSpan, { code: m.code.importPath }));
        continue;
      }
      const name = importedFileName(pf.file, line.path);
      const key = resolve(name);
      const onStack = stack.indexOf(key);
      if (onStack >= 0) {
        const cycle = [...stack.slice(onStack).map((k) => byKey.get(k)!.file), name].join(" → ");
        diagnostics.push(error(m.importCycle(cycle), line.pathSpan, { code: m.code.importCycle }));
        continue;
      }
      const known = byKey.get(key);
      if (known) {
        pf.targets[slot] = known.file;
        continue;
      }
      let source: string;
      try {
        source = read(name);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        const reason = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a directory" : (e as Error).message;
        diagnostics.push(error(m.missingFile(line.path, pf.file, name, reason), line.pathSpan, { code: m.code.missingFile }));
        continue;
      }
      const parsed: ParsedFile = { file: name, program: await parse(name, source), targets: [] };
      byKey.set(key, parsed);
      files.push(parsed);
      pf.targets[slot] = name;
      await visit(parsed, [...stack, key]);
    }
  };
  await visit(first, [resolve(main.file)]);
  return { files, diagnostics };
}

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
