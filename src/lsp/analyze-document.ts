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
 */
import { typeProgram } from "../check/index";
import type { Type } from "../check/types/type-model";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { diagnosticJson } from "../diagnostics/diagnostics-json";
import type { Expr, Program } from "../syntax/ast";
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
}

export interface LspDiagnostic {
  range: Range;
  severity: 1 | 2;
  code?: string;
  source: "luma";
  message: string;
}

/** `cache`: the document's parsed pieces, so an edit re-parses only what it touched. */
export function analyze(uri: string, version: number, text: string, cache?: PieceCache): Analysis {
  const file = fileOfUri(uri);
  const lines = new LineIndex(text);
  const parsed = recoveringParse(text, file, cache);
  const { types, diagnostics } = typeProgram(parsed.program);
  return {
    uri,
    version,
    text,
    lines,
    program: parsed.program,
    types,
    index: buildIndex(parsed.program, types),
    pieces: cache,
    diagnostics: [...parsed.syntaxErrors, ...diagnostics.filter((d) => !parsed.droppedNames.some((n) => d.message.includes(`'${n}'`)))],
    complete: parsed.syntaxErrors.length === 0,
  };
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
