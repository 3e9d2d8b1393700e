/**
 * Linking a program's files into the one `Program` the checker, the runtime and the build
 * read (docs/language/imports.md). The loader (`load/import-graph.ts`) has read and parsed
 * every file once, main file first, and refused bad paths, missing files and cycles; this
 * decides what each name of each file refers to:
 *
 * - each file sees its own declarations and the names it imports (an alias in place of the
 *   declared name) — nothing else: a declaration of another file used without importing it
 *   is E1007, an imported name the target does not declare is E1003 (a file does not
 *   re-export), a name brought in twice or over one of the file's own is E1005;
 * - the files' declarations become one program, so their names are unique across files
 *   (E1006): a tool is still called by its declared name (what models see, what its handler
 *   is looked up by) and a schema keeps its name in traces. An alias is written back to the
 *   declared name in the importing file's AST, so everything after this stage reads one
 *   namespace and only spans tell the files apart.
 *
 * The linked program is the main file's, with every file's declarations (the main file's
 * first) and the main file's statements, tests and `replay`; an imported file's top-level
 * statements and tests never run. `linked` lists the files and what each sees, for the
 * language server.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic";
import { error } from "../../diagnostics/diagnostic";
import { closestName } from "../../diagnostics/did-you-mean";
import { forEachDeclarationReference } from "../../language/declaration-references";
import { resolutionOf } from "../../language/name-resolution";
import type { Decl, LinkedFile, Program, Span } from "../../syntax/ast";
import { importMessages as m } from "./import-messages";
import { STD_IMPORT_DIAGNOSTICS } from "../../diagnostics/catalog/std-codes";
import { STD_MODULE, STD_SOURCE_NAMES } from "../../language/std-tools";

/** One parsed file of the program and the file each of its imports names (by import, same order). */
export interface ParsedFile {
  file: string;
  program: Program;
  /** The file name (as spans name it) each import line resolved to; absent where the loader refused it. */
  targets: (string | undefined)[];
}

/** The names a file sees: its local name → the declared name and the file declaring it. */
type Scope = Map<string, { declared: string; file: string }>;

/** Name targets that are no declaration: a Name reading one is left alone. */
const LOCAL_KINDS = new Set(["param", "variable", "args", "case", "method"]);

export function linkProgram(files: readonly ParsedFile[]): { program: Program; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byFile = new Map(files.map((f) => [f.file, f]));
  const owner = new Map<string, { file: string; decl: Decl }>();
  for (const f of files) {
    for (const decl of f.program.decls) {
      const first = owner.get(decl.name);
      if (!first) owner.set(decl.name, { file: f.file, decl });
      else if (first.file !== f.file) {
        // luma:std comes last and cannot be edited: the clash is reported at the program's own declaration.
        const at = f.file === STD_MODULE ? first.decl.nameSpan : decl.nameSpan;
        diagnostics.push(error(m.declaredTwice(decl.name, first.file, f.file), at, { code: m.code.declaredTwice }));
      }
    }
  }
  const scopes = new Map<string, Scope>();
  for (const f of files) scopes.set(f.file, scopeOf(f, byFile, diagnostics));
  for (const f of files) bindReferences(f, scopes.get(f.file)!, owner, diagnostics);

  const [main, ...rest] = files;
  const linked: LinkedFile[] = files.map((f) => ({ file: f.file, imports: f.program.imports ?? [], declared: f.program.decls.map((d) => d.name) }));
  const program: Program = { ...main!.program, decls: [...main!.program.decls, ...rest.flatMap((f) => f.program.decls)], linked };
  return { program, diagnostics };
}

/** The file's own declarations, then each imported name (E1003, E1005 where it cannot be). */
function scopeOf(f: ParsedFile, byFile: Map<string, ParsedFile>, diagnostics: Diagnostic[]): Scope {
  const scope: Scope = new Map();
  for (const d of f.program.decls) if (!scope.has(d.name)) scope.set(d.name, { declared: d.name, file: f.file });
  (f.program.imports ?? []).forEach((line, i) => {
    const target = f.targets[i] === undefined ? undefined : byFile.get(f.targets[i]!);
    if (!target) return;
    const declared = new Set(target.program.decls.map((d) => d.name));
    for (const item of line.names) {
      if (!declared.has(item.name)) {
        diagnostics.push(unknownName(item.name, item.nameSpan, target, f, declared));
        continue;
      }
      const local = item.alias ?? item.name;
      const span = item.aliasSpan ?? item.nameSpan;
      const before = scope.get(local);
      if (before) {
        const other = before.file === f.file ? "declares it too" : `already imports that name from ${before.file}`;
        diagnostics.push(error(m.nameClash(local, target.file, f.file, other), span, { code: m.code.nameClash, hints: [m.hints.rename] }));
        continue;
      }
      scope.set(local, { declared: item.name, file: target.file });
    }
  });
  return scope;
}

function unknownName(name: string, span: Span, target: ParsedFile, importer: ParsedFile, declared: Set<string>): Diagnostic {
  if (target.file === STD_MODULE) return unknownStdName(name, span);
  const hints: string[] = [];
  const via = (target.program.imports ?? []).find((l) => l.names.some((n) => (n.alias ?? n.name) === name));
  if (via) hints.push(m.hints.noReexport(via.path));
  else {
    const near = closestName(name, declared);
    if (near) hints.push(m.hints.didYouMean(near));
  }
  return error(m.unknownName(name, target.file, importer.file), span, { code: m.code.unknownName, hints });
}

/** E1009: luma:std offers its tools and their schemas (all of them, whichever the program keeps). */
function unknownStdName(name: string, span: Span): Diagnostic {
  const d = STD_IMPORT_DIAGNOSTICS.unknownStdName;
  const near = closestName(name, STD_SOURCE_NAMES);
  return error(d.text(name, STD_SOURCE_NAMES.join(", ")), span, { code: d.code, hints: near ? [d.hints.didYouMean(near)] : [] });
}

/**
 * Every reference of the file to a declaration: an alias is written back to the declared
 * name; a declaration of another file that the file does not import is E1007. A Name the
 * file's own resolution reads as a parameter, variable or method is not a reference.
 */
function bindReferences(
  f: ParsedFile, scope: Scope, owner: Map<string, { file: string; decl: Decl }>, diagnostics: Diagnostic[],
): void {
  const resolution = resolutionOf(f.program);
  const reported = new Set<string>();
  forEachDeclarationReference(f.program, (ref) => {
    if (ref.nameExpr) {
      const kind = resolution.targetOf(ref.nameExpr)?.kind;
      if (kind !== undefined && LOCAL_KINDS.has(kind)) return;
    }
    const seen = scope.get(ref.name);
    if (seen) {
      if (seen.declared !== ref.name) ref.rename(seen.declared);
      return;
    }
    const elsewhere = owner.get(ref.name);
    if (!elsewhere || elsewhere.file === f.file || reported.has(`${ref.span.start}`)) return;
    reported.add(`${ref.span.start}`);
    const line = `import { ${ref.name} } from "${relativeImport(f.file, elsewhere.file)}"`;
    diagnostics.push(error(m.notImported(ref.name, elsewhere.file, f.file), ref.span, { code: m.code.notImported, hints: [m.hints.add(line)] }));
  });
}

/** The path an import in `from` would write for `to` (both as spans name them). */
export function relativeImport(from: string, to: string): string {
  const fromParts = from.split("/").slice(0, -1).filter((p) => p !== "." && p !== "");
  const toParts = to.split("/").filter((p) => p !== "." && p !== "");
  let common = 0;
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++;
  const up = fromParts.length - common;
  const rest = toParts.slice(common).join("/");
  return up === 0 ? `./${rest}` : `${"../".repeat(up)}${rest}`;
}

/**
 * What of a linked program runs: the main file's declarations and the names it imports, and
 * what those reach — through code, declarations and theirs, transitively. A tool an
 * imported file declares but nothing of the main file reaches needs no handler, as if the
 * file had not declared it. Applied after the check (which judges every file whole); a
 * program of one file is returned as it is.
 */
export function reachedProgram(program: Program, rootFiles: readonly string[] = [program.file]): Program {
  if (!program.linked) return program;
  const byName = new Map(program.decls.map((d) => [d.name, d]));
  const kept = new Set<Decl>();
  const queue: Decl[] = [];
  const reach = (name: string) => {
    const decl = byName.get(name);
    if (decl && !kept.has(decl)) {
      kept.add(decl);
      queue.push(decl);
    }
  };
  for (const d of program.decls) if (rootFiles.includes(d.span.file)) reach(d.name);
  // What a root file imports is part of it even when unused there: `luma mcp` serves an imported tool.
  for (const f of program.linked) if (rootFiles.includes(f.file)) for (const line of f.imports) for (const n of line.names) reach(n.name);
  forEachDeclarationReference({ decls: [], body: program.body, tests: program.tests, evals: program.evals }, (ref) => reach(ref.name));
  while (queue.length > 0) forEachDeclarationReference({ decls: [queue.pop()!], body: [] }, (ref) => reach(ref.name));
  return { ...program, decls: program.decls.filter((d) => kept.has(d)) };
}
