/**
 * Definition, references, rename and the outline — all read the name index
 * (`document-index.ts`), so a rename changes exactly the places "find references" lists.
 * A rename must give a Luma identifier that no keyword claims; otherwise it is refused
 * with a message, never half applied. A test document and the file it tests are one
 * namespace for the tested file's declarations: definition leads from the test file into
 * `NAME.luma`, and references and rename cover both files (`occurrencesOf`).
 *
 * Across imports (docs/language/imports.md) the same holds for a declaration of an imported
 * file: definition leads into that file, references and rename cover it and the open
 * documents that import it (`Sharing`). A rename leaves an alias as it is (`as X` and the
 * uses of `X`): it renames the declaration, not the importer's own name for it.
 */
import { pathToFileURL } from "node:url";
import { isBuiltinModulePath } from "../language/std-tools";
import type { Decl } from "../syntax/ast";
import { fileOfUri, type Analysis } from "./analyze-document";
import { KEYWORDS } from "./completion-items";
import type { Definition, Occurrence } from "./document-index";
import { LineIndex, type Range } from "./line-index";

export interface Location {
  uri: string;
  range: Range;
}

/** The analysis of the other file of a document's pair (src/syntax/test-file-pair.ts), computed only when asked. */
export type Partner = (file?: string) => Analysis | undefined;

/** The other analyses that may use the declarations of a file (its importers, and its own), computed only when asked. */
export type Sharing = (file: string) => Analysis[];

/** The document `def` is written in: this one, or the other file of its pair (a test document's tested file). */
export function homeOf(a: Analysis, def: Definition, partner: Partner): Analysis | undefined {
  return def.nameSpan.file === fileOfUri(a.uri) ? a : partner(def.nameSpan.file);
}

export function definitionAt(a: Analysis, offset: number, partner: Partner): Location | undefined {
  const occ = a.index?.at(offset);
  const importedText = occ && a.imported?.get(occ.def.nameSpan.file);
  if (occ && importedText !== undefined) {
    const { file, start, end } = occ.def.nameSpan;
    // A declaration of luma:std has no file an editor could open (hover shows it instead).
    if (isBuiltinModulePath(file)) return undefined;
    return { uri: pathToFileURL(file).href, range: new LineIndex(importedText).range(start, end) };
  }
  const home = occ && homeOf(a, occ.def, partner);
  return home && occ && { uri: home.uri, range: home.lines.range(occ.def.nameSpan.start, occ.def.nameSpan.end) };
}

/**
 * Every occurrence of `def`, in this document and, for a name both files of a pair can
 * use, in the other one: a declaration of `NAME.luma` (and its fields and methods) is
 * used by `NAME.test.luma`, so its references and its rename span both. A test file's
 * own declarations and any variable stay in their file.
 */
function occurrencesOf(a: Analysis, def: Definition, partner: Partner, sharing?: Sharing): { doc: Analysis; occ: Occurrence }[] {
  const local = def.kind === "Variable" || def.kind === "Param";
  if (!local && sharing && a.tested === undefined) {
    const others = sharing(def.nameSpan.file);
    if (others.length > 0 || a.imported) {
      return [a, ...others].flatMap((doc) => doc.index.referencesTo(def).map((occ) => ({ doc, occ })));
    }
  }
  const crosses = !local && (def.nameSpan.file !== fileOfUri(a.uri) || a.tested === undefined);
  const other = crosses ? partner() : undefined;
  return [a, ...(other ? [other] : [])].flatMap((doc) => doc.index.referencesTo(def).map((occ) => ({ doc, occ })));
}

export function referencesAt(a: Analysis, offset: number, includeDeclaration: boolean, partner: Partner, sharing?: Sharing): Location[] {
  const occ = a.index?.at(offset);
  if (!occ) return [];
  const { def } = occ;
  const isDeclaration = (doc: Analysis, o: Occurrence) => o.start === def.nameSpan.start && fileOfUri(doc.uri) === def.nameSpan.file;
  return occurrencesOf(a, def, partner, sharing)
    .filter(({ doc, occ: o }) => includeDeclaration || !isDeclaration(doc, o))
    .map(({ doc, occ: o }) => ({ uri: doc.uri, range: doc.lines.range(o.start, o.end) }));
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type RenameResult = { changes: Record<string, { range: Range; newText: string }[]> } | { error: string } | null;

export function renameAt(a: Analysis, offset: number, newName: string, partner: Partner, sharing?: Sharing): RenameResult {
  const occ = a.index?.at(offset);
  if (!occ) return null;
  if (!IDENTIFIER.test(newName) || KEYWORDS.includes(newName)) return { error: `'${newName}' is not a valid Luma name.` };
  const changes: Record<string, { range: Range; newText: string }[]> = {};
  for (const { doc, occ: o } of occurrencesOf(a, occ.def, partner, sharing)) {
    // An alias (`as X` and its uses) is the importer's own name: it stays.
    if (doc.text.slice(o.start, o.end) !== occ.def.name) continue;
    (changes[doc.uri] ??= []).push({ range: doc.lines.range(o.start, o.end), newText: newName });
  }
  return { changes };
}

export function prepareRenameAt(a: Analysis, offset: number): { range: Range; placeholder: string } | null {
  const occ = a.index?.at(offset);
  return occ ? { range: a.lines.range(occ.start, occ.end), placeholder: occ.def.name } : null;
}

/** LSP SymbolKind values. */
const SYMBOL_KIND: Record<Decl["kind"], number> = {
  Schema: 23, Union: 10, Tool: 12, Fn: 12, Agent: 5, Model: 2, Datasource: 2, Query: 12, Command: 12,
};

interface DocumentSymbol {
  name: string;
  detail?: string;
  kind: number;
  range: Range;
  selectionRange: Range;
  children?: DocumentSymbol[];
}

export function documentSymbols(a: Analysis): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const sym = (name: string, kind: number, span: { start: number; end: number }, nameSpan: { start: number; end: number }, detail?: string): DocumentSymbol => ({
    name, kind, detail, range: a.lines.range(span.start, span.end), selectionRange: a.lines.range(nameSpan.start, nameSpan.end),
  });
  for (const d of a.program?.decls ?? []) {
    const s = sym(d.name, SYMBOL_KIND[d.kind], d.span, d.nameSpan, d.kind.toLowerCase());
    if (d.kind === "Schema") s.children = d.fields.map((f) => sym(f.name, 8, f.span, f.nameSpan));
    if (d.kind === "Agent") s.children = d.methods.map((m) => sym(m.name, 6, m.span, m.nameSpan));
    if (d.kind === "Tool" || d.kind === "Model" || d.kind === "Datasource") {
      const entries = d.kind === "Tool" ? d.options : d.entries;
      s.children = entries.map((e) => sym(e.key, 7, e.span, e.keySpan));
    }
    out.push(s);
  }
  for (const [, def] of a.index?.unitNames.get(null) ?? []) out.push(sym(def.name, 13, def.span, def.nameSpan, "variable"));
  return out.sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);
}
