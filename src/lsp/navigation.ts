/**
 * Definition, references, rename and the outline — all read the name index
 * (`document-index.ts`), so a rename changes exactly the places "find references" lists.
 * A rename must give a Luma identifier that no keyword claims; otherwise it is refused
 * with a message, never half applied.
 */
import type { Decl } from "../syntax/ast";
import type { Analysis } from "./analyze-document";
import { KEYWORDS } from "./completion-items";
import type { Range } from "./line-index";

export interface Location {
  uri: string;
  range: Range;
}

export function definitionAt(a: Analysis, offset: number): Location | undefined {
  const occ = a.index?.at(offset);
  return occ && { uri: a.uri, range: a.lines.range(occ.def.nameSpan.start, occ.def.nameSpan.end) };
}

export function referencesAt(a: Analysis, offset: number, includeDeclaration: boolean): Location[] {
  const occ = a.index?.at(offset);
  if (!occ || !a.index) return [];
  return a.index
    .referencesTo(occ.def)
    .filter((o) => includeDeclaration || o.start !== occ.def.nameSpan.start)
    .map((o) => ({ uri: a.uri, range: a.lines.range(o.start, o.end) }));
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type RenameResult = { changes: Record<string, { range: Range; newText: string }[]> } | { error: string } | null;

export function renameAt(a: Analysis, offset: number, newName: string): RenameResult {
  const occ = a.index?.at(offset);
  if (!occ || !a.index) return null;
  if (!IDENTIFIER.test(newName) || KEYWORDS.includes(newName)) return { error: `'${newName}' is not a valid Luma name.` };
  const edits = a.index.referencesTo(occ.def).map((o) => ({ range: a.lines.range(o.start, o.end), newText: newName }));
  return { changes: { [a.uri]: edits } };
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
