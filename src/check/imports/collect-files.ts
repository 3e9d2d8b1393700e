/**
 * Collecting a program's files: the main file's `import` lines, the files they name, theirs,
 * and so on — each read and parsed once (docs/language/imports.md). A path is relative to
 * the file that writes it and ends in `.luma` (E1001); a file that cannot be read is E1002
 * and a file that imports itself, directly or through others, E1004 — each reported at the
 * import's path, in the importing file. What the names mean is decided after, by the linker
 * (`link-program.ts`).
 *
 * Reading and parsing are the caller's (callbacks): the loader reads the disk and rejects a
 * syntax error (`load/load-program.ts`), the language server reads its open documents first
 * and parses with recovery (`lsp/analyze-document.ts`) — the checker itself reads nothing.
 *
 * A file is named in spans as the importing file's name joined with the path
 * (`examples/lib/orders.luma` for `"./lib/orders.luma"` in `examples/main.luma`), so every
 * message points at a path the user can open from where they ran the command.
 *
 * A path starting with `luma:` names a built-in module (`luma:std`, docs/language/std-tools.md),
 * parsed from the binary's own text rather than read (`builtin-modules.ts`).
 */
import { resolve } from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic";
import { error } from "../../diagnostics/diagnostic";
import type { Program } from "../../syntax/ast";
import { importMessages as m } from "./import-messages";
import { importedFileName, isImportPath } from "./import-paths";
import type { ParsedFile } from "./link-program";
import { builtinModuleFile, keepImportedStdTools } from "./builtin-modules";
import { isBuiltinModulePath } from "../../language/std-tools";

/** How a file's text is read (and kept for rendering); throws as `readFileSync` does. */
export type ReadText = (file: string) => string;


/**
 * Every file of the program, the main one first, then each in the order first imported
 * (depth first). Syntax errors of an imported file throw (as the main file's do); import
 * errors are returned, with the files that could be read.
 */
export function collectProgramFiles(
  main: Program, read: ReadText, parse: (file: string, source: string) => Program,
): { files: ParsedFile[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const first: ParsedFile = { file: main.file, program: main, targets: [] };
  const byKey = new Map<string, ParsedFile>([[resolve(main.file), first]]);
  const files: ParsedFile[] = [first];

  const visit = (pf: ParsedFile, stack: string[]): void => {
    for (const line of pf.program.imports ?? []) {
      pf.targets.push(undefined);
      const slot = pf.targets.length - 1;
      if (isBuiltinModulePath(line.path)) {
        const builtin = builtinModuleFile(line, byKey, files, parse, diagnostics);
        if (builtin) pf.targets[slot] = builtin.file;
        continue;
      }
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
      const parsed: ParsedFile = { file: name, program: parse(name, source), targets: [] };
      byKey.set(key, parsed);
      files.push(parsed);
      pf.targets[slot] = name;
      visit(parsed, [...stack, key]);
    }
  };
  visit(first, [resolve(main.file)]);
  return { files: keepImportedStdTools(files), diagnostics };
}

