/**
 * Imports of built-in modules (`from "luma:std"`, docs/language/std-tools.md): the module's
 * declarations are Luma source embedded in the binary (`language/std-tools.ts`), parsed once
 * per program like any imported file and named in spans by the import path itself
 * (`luma:std:42:6`), so the linker, the checker and the language server treat them as a
 * file's. Any other `luma:` path is E1008.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic";
import { error } from "../../diagnostics/diagnostic";
import { STD_IMPORT_DIAGNOSTICS } from "../../diagnostics/catalog/std-codes";
import { STD_MODULE, STD_SOURCE } from "../../language/std-tools";
import type { ImportDecl, Program } from "../../syntax/ast";
import type { ParsedFile } from "./link-program";

/** The built-in modules by import path: their source. */
const BUILTIN_SOURCES: Readonly<Record<string, string>> = { [STD_MODULE]: STD_SOURCE };

/** The built-in module an import names (parsed on first use), or undefined after reporting E1008. */
export function builtinModuleFile(
  line: ImportDecl,
  byKey: Map<string, ParsedFile>,
  files: ParsedFile[],
  parse: (file: string, source: string) => Program,
  diagnostics: Diagnostic[],
): ParsedFile | undefined {
  const source = Object.hasOwn(BUILTIN_SOURCES, line.path) ? BUILTIN_SOURCES[line.path] : undefined;
  if (source === undefined) {
    const d = STD_IMPORT_DIAGNOSTICS.unknownModule;
    const known = Object.keys(BUILTIN_SOURCES).map((k) => `"${k}"`).join(", ");
    diagnostics.push(error(d.text(line.path, known), line.pathSpan, { code: d.code }));
    return undefined;
  }
  const known = byKey.get(line.path);
  if (known) return known;
  const parsed: ParsedFile = { file: line.path, program: parse(line.path, source), targets: [] };
  byKey.set(line.path, parsed);
  files.push(parsed);
  return parsed;
}

/**
 * The program's files with `luma:std` last, holding its schemas and only the tools some
 * file imports: a program that imports `read_file` may still declare an `http_get` of its
 * own, and the declarations of its own files come first wherever a name is judged.
 */
export function keepImportedStdTools(files: ParsedFile[]): ParsedFile[] {
  const std = files.find((f) => f.file === STD_MODULE);
  if (!std) return files;
  const imported = new Set(files.flatMap((f) => (f.program.imports ?? []).filter((l) => l.path === STD_MODULE).flatMap((l) => l.names.map((n) => n.name))));
  const decls = std.program.decls.filter((d) => d.kind !== "Tool" || imported.has(d.name));
  return [...files.filter((f) => f !== std), { ...std, program: { ...std.program, decls } }];
}
