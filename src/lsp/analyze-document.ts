/**
 * One document version, analysed: the recovering parse, the real checker and typer
 * (`typeProgram`, the same code `luma check` runs), and the name index built on their
 * result. Every feature of the server reads an `Analysis`; it is computed once per
 * version, after the debounce, or on demand when a request arrives first.
 *
 * LSP diagnostics come from `diagnosticJson` (the shape `luma check --format json`
 * prints), so both report the same code, severity and hints; only the positions are
 * re-based to LSP's 0-based lines. At most MAX_DIAGNOSTICS are published. A check
 * message naming a declaration that a syntax error left out ("Unknown type 'A'") is
 * dropped: the syntax error is the one problem there.
 *
 * A test document `NAME.test.luma` is typed with the declarations of `NAME.luma` (its
 * `tested` source: the open document's text, else the file on disk), as `luma test` and
 * `luma check` do, so the names it uses from there are known. Everything an analysis
 * holds is still about its own document — its program, its expressions' types, the
 * diagnostics found in it — since offsets of the other file mean nothing here; the other
 * file's problems are shown on that file. Its index resolves names to the other file's
 * declarations, though: definition, hover and references reach them through that file's
 * own analysis (`DocumentStore.partnerOf`).
 *
 * A document with `import` lines (docs/language/imports.md) is analysed with the files it
 * imports, read through `readFile` (an open document's text, else the disk): collected and
 * linked as `luma check` links them (`check/imports/`), on copies — the linker writes an
 * alias back to the declared name, which must not reach the document's cached pieces. Its
 * diagnostics are the import errors and check errors found in this document; its index
 * knows the imported declarations (definition leads into their files, `imported` holds
 * those files' texts for the ranges).
 */
import { collectProgramFiles } from "../check/imports/collect-files";
import { linkProgram } from "../check/imports/link-program";
import { typeProgram } from "../check/index";
import type { Type } from "../check/types/type-model";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { diagnosticJson } from "../diagnostics/diagnostics-json";
import type { Decl, Expr, Program } from "../syntax/ast";
import { buildIndex, type DocumentIndex } from "./document-index";
import { LineIndex, type Range } from "./line-index";
import { recoveringParse, type PieceCache } from "./recovering-parse";

export const MAX_DIAGNOSTICS = 500;

export interface Analysis {
  uri: string;
  version: number;
  text: string;
  lines: LineIndex;
  program: Program;
  types: ReadonlyMap<Expr, Type>;
  index: DocumentIndex;
  diagnostics: Diagnostic[];
  /** The document's piece cache (completion re-analyses a variant of the text with it). */
  pieces?: PieceCache;
  /** No syntax error at all: the program is exactly the text (the schema compiler may run on it). */
  complete: boolean;
  /** A test document's tested file, as analysed with it (completion re-analyses with the same). */
  tested?: TestedSource;
  /** How imported files were read (completion re-analyses with the same). */
  readFile?: ReadFile;
  /** The texts of the files the document imports, by file (as spans name them). */
  imported?: ReadonlyMap<string, string>;
}

/** An imported file's text: the open document's, else the disk's; undefined when it cannot be read. */
export type ReadFile = (file: string) => string | undefined;

/** The file a test document's tests see, and its text. */
export interface TestedSource {
  file: string;
  text: string;
}

export interface LspDiagnostic {
  range: Range;
  severity: 1 | 2;
  code?: string;
  source: "luma";
  message: string;
}

/** The last tested file's declarations, parsed once while its text stays the same (each keystroke in the test document re-types). */
let testedMemo: { source: TestedSource; decls: Decl[]; droppedNames: string[]; pieces: PieceCache } | undefined;

function testedDeclarations(source: TestedSource): { decls: Decl[]; droppedNames: string[] } {
  if (testedMemo?.source.file !== source.file || testedMemo.source.text !== source.text) {
    const pieces: PieceCache = testedMemo?.source.file === source.file ? testedMemo.pieces : new Map();
    const parsed = recoveringParse(source.text, source.file, pieces);
    testedMemo = { source, decls: parsed.program.decls, droppedNames: parsed.droppedNames, pieces };
  }
  return testedMemo;
}

/** Only what lies in `file`: the types of a two-file program include the other file's expressions. */
function typesIn(file: string, types: ReadonlyMap<Expr, Type>): ReadonlyMap<Expr, Type> {
  return new Map([...types].filter(([e]) => e.span.file === file));
}

/**
 * `cache`: the document's parsed pieces, so an edit re-parses only what it touched.
 * `tested`: for a test document, the file whose declarations its tests see.
 */
export function analyze(uri: string, version: number, text: string, cache?: PieceCache, tested?: TestedSource, readFile?: ReadFile): Analysis {
  const file = fileOfUri(uri);
  const lines = new LineIndex(text);
  const parsed = recoveringParse(text, file, cache);
  const seen = tested && testedDeclarations(tested);
  const linked = !seen && readFile && parsed.program.imports ? linkImports(parsed.program, readFile) : undefined;
  const program = seen ? { ...parsed.program, decls: [...seen.decls, ...parsed.program.decls] } : (linked?.program ?? parsed.program);
  const typed = typeProgram(program);
  const types = seen || linked ? typesIn(file, typed.types) : typed.types;
  const droppedNames = [...parsed.droppedNames, ...(seen?.droppedNames ?? [])];
  const found = [...(linked?.diagnostics ?? []), ...typed.diagnostics];
  const here = found.filter((d) => d.span === undefined || d.span.file === file);
  if (linked) here.push(...importedFileErrors(parsed.program, found, linked.texts));
  return {
    uri,
    version,
    text,
    lines,
    program: parsed.program,
    types,
    index: buildIndex(program, types, seen?.decls ?? linked?.program.decls.filter((d) => d.span.file !== file)),
    pieces: cache,
    diagnostics: [...parsed.syntaxErrors, ...here.filter((d) => !droppedNames.some((n) => d.message.includes(`'${n}'`)))],
    complete: parsed.syntaxErrors.length === 0,
    tested,
    readFile,
    imported: linked?.texts,
  };
}

/**
 * The errors found in the files a document imports, one diagnostic per file at the import
 * line that reaches it (the line naming it, else the document's first): the importer shows
 * that what it imports is broken, and where (the file's own analysis shows each error).
 */
function importedFileErrors(own: Program, found: readonly Diagnostic[], texts: ReadonlyMap<string, string>): Diagnostic[] {
  const lines = own.imports ?? [];
  if (lines.length === 0) return [];
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of found) {
    if (d.severity !== "error" || !d.span || d.span.file === own.file || !texts.has(d.span.file)) continue;
    byFile.set(d.span.file, [...(byFile.get(d.span.file) ?? []), d]);
  }
  return [...byFile].map(([other, errors]) => {
    const first = errors[0]!;
    const at = new LineIndex(texts.get(other)!).position(first.span!.start);
    const line = lines.find((l) => other.endsWith(l.path.replace(/^(\.\.?\/)+/, ""))) ?? lines[0]!;
    const count = errors.length === 1 ? "an error" : `${errors.length} errors`;
    const message = `${other} has ${count}: ${at.line + 1}:${at.character + 1}: ${first.message}`;
    return { severity: "error", message, span: line.pathSpan, ...(first.code ? { code: first.code } : {}) };
  });
}

/** Each imported file's last parse, by file: reused while its text stays the same (copied before linking). */
const importedMemo = new Map<string, { text: string; program: Program }>();

/** The document's program linked with what it imports, the import errors, and the texts read. */
function linkImports(own: Program, readFile: ReadFile): { program: Program; diagnostics: Diagnostic[]; texts: Map<string, string> } {
  const texts = new Map<string, string>();
  const read = (f: string): string => {
    const t = readFile(f);
    if (t === undefined) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
    texts.set(f, t);
    return t;
  };
  const parse = (f: string, t: string): Program => {
    // A built-in module (luma:std) is not read: its text is kept here, for hover and references.
    if (!texts.has(f)) texts.set(f, t);
    let memo = importedMemo.get(f);
    if (memo?.text !== t) {
      memo = { text: t, program: recoveringParse(t, f, new Map()).program };
      importedMemo.set(f, memo);
    }
    return structuredClone(memo.program);
  };
  const graph = collectProgramFiles(structuredClone(own), read, parse);
  const linked = linkProgram(graph.files);
  return { program: linked.program, diagnostics: [...graph.diagnostics, ...linked.diagnostics], texts };
}

export function lspDiagnostics(a: Analysis): LspDiagnostic[] {
  return a.diagnostics.slice(0, MAX_DIAGNOSTICS).map((d) => {
    const json = diagnosticJson({ ...d, span: undefined }, () => undefined);
    const range = d.span ? a.lines.range(d.span.start, d.span.end) : a.lines.range(0, 0);
    const hints = json.hints.length > 0 ? `\n${json.hints.map((h) => `hint: ${h}`).join("\n")}` : "";
    const out: LspDiagnostic = { range, severity: json.severity === "error" ? 1 : 2, source: "luma", message: json.message + hints };
    if (json.code) out.code = json.code;
    return out;
  });
}

/** `file:///a/b.luma` → `/a/b.luma` (what spans and messages name); anything else as is. */
export function fileOfUri(uri: string): string {
  try {
    return uri.startsWith("file:") ? decodeURIComponent(new URL(uri).pathname) : uri;
  } catch {
    return uri;
  }
}
