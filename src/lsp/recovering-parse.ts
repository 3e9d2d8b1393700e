/**
 * Parsing for an editor: fast on every keystroke, and one typo must not hide the rest
 * of the file. Both come from parsing the file in pieces with the real parser
 * (`src/syntax/parse.ts`, no second grammar): a piece is a top-level item — it starts
 * on a line that begins in column 0 (outside strings and comments) with a name, a
 * keyword or a literal, the layout every example and `luma fmt` use. Each piece's AST is
 * cached by its text (`PieceCache`), so an edit re-parses only the piece it touched; a
 * piece that stayed in place is re-used as it is, one that moved gets a copy with its
 * spans shifted to its new offset. (The checker only reads the AST, so sharing is safe.)
 *
 * A piece that fails at its very end may just be cut too early (a fn whose body is not
 * indented, a call whose arguments run on at column 0): it is parsed again together with
 * the pieces that follow, up to MAX_MERGE of them, while the parse still runs out of text;
 * the first combination that parses wins. When
 * none does, the piece's syntax error is reported, the piece is left out, and the rest
 * of the file is still parsed and checked. The lines that never start a piece (`else`,
 * `catch`, `tagged`, operators, closing brackets) are exactly those that continue the
 * line before, so two pieces that each parse mean what the whole file means.
 *
 * Work is capped: merging stops once MAX_PARSED_FACTOR times the text has been parsed,
 * and after MAX_FAILED_PIECES failed items the rest of the file is left unparsed (a
 * warning there says so).
 */
import { attachDocComments } from "../syntax/doc-comments";
import { type Diagnostic, warning } from "../diagnostics/diagnostic";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";
import type { Decl, EvalDecl, ImportDecl, Program, ReplaySetup, Stmt, TestDecl } from "../syntax/ast";
import { parse } from "../syntax/parse";

export const MAX_MERGE = 16;
export const MAX_PARSED_FACTOR = 2;
/** A failed parse costs far more than a good one (Ohm re-runs it to explain the failure): past this many, stop. */
export const MAX_FAILED_PIECES = 100;
export const TOO_MANY_ERRORS = `More than ${MAX_FAILED_PIECES} items with syntax errors: the rest of the file is not checked.`;

/** A piece's parse, with spans relative to the piece (offset 0). */
interface PieceParse {
  text: string;
  decls: Decl[];
  body: Stmt[];
  /** `luma test` blocks and a file-level `replay` of the piece (test files). */
  tests: TestDecl[];
  replay?: ReplaySetup;
  /** `luma eval` blocks of the piece (eval files). */
  evals: EvalDecl[];
  /** The piece's `import` lines (docs/language/imports.md). */
  imports: ImportDecl[];
  diagnostics: Diagnostic[];
  ok: boolean;
  /** The AST last placed at a file offset: re-used as is while the piece stays there. */
  placed?: { offset: number; decls: Decl[]; body: Stmt[]; tests: TestDecl[]; evals: EvalDecl[]; replay?: ReplaySetup; imports: ImportDecl[] };
}

/** Piece text → its parse; kept per document, holding only the pieces of the last version. */
export type PieceCache = Map<string, PieceParse>;

export interface RecoveredParse {
  program: Program;
  /** Every syntax error, at file offsets. */
  syntaxErrors: Diagnostic[];
  /** The names declared by the items left out (so "unknown 'X'" for them is not reported as well). */
  droppedNames: string[];
}

const DECLARATION_HEAD = /^\s*(?:schema|tool|agent|model|fn|datasource|query|command)\s+([A-Za-z_][A-Za-z0-9_]*)/;

const CONTINUATIONS = new Set(["else", "catch", "tagged", "by", "and", "or", "in", "using"]);

/** Offsets where pieces start: column 0, outside strings and comments, not a continuation. */
export function pieceStarts(text: string): number[] {
  const starts = [0];
  // `stack`: the open strings and interpolations (`"` inside a string, `{` inside code of one).
  const stack: string[] = [];
  const braces: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const inString = stack[stack.length - 1] === '"';
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') stack.pop();
      else if (c === "{") {
        stack.push("{");
        braces.push(0);
      }
      continue;
    }
    if (stack.length > 0) {
      // Code inside an interpolation: nested braces and strings, until its closing `}`.
      if (c === '"') stack.push('"');
      else if (c === "{") braces[braces.length - 1]++;
      else if (c === "}") {
        if (braces[braces.length - 1] === 0) {
          stack.pop();
          braces.pop();
        } else braces[braces.length - 1]--;
      }
      continue;
    }
    if (c === '"') stack.push('"');
    else if (c === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      i = (nl === -1 ? text.length : nl) - 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + 1;
    } else if (c === "\n" && i + 1 < text.length && /[A-Za-z_0-9"[({]/.test(text[i + 1])) {
      const word = /^[A-Za-z_]+/.exec(text.slice(i + 1, i + 12))?.[0];
      if (!word || !CONTINUATIONS.has(word)) starts.push(i + 1);
    }
  }
  return starts;
}

/** The parse failed where its text ends (blanks aside): more text might complete it. */
function failedAtEnd(p: PieceParse, length: number): boolean {
  const at = p.diagnostics[0]?.span?.start;
  return at !== undefined && (at >= length || p.text.slice(at).trim() === "");
}

function parsePiece(cache: PieceCache, used: PieceCache, text: string, file: string): PieceParse {
  let hit = cache.get(text) ?? used.get(text);
  if (!hit) {
    const r = parse(text, file);
    hit = {
      text, decls: r.program?.decls ?? [], body: r.program?.body ?? [], tests: r.program?.tests ?? [], evals: r.program?.evals ?? [], replay: r.program?.replay,
      imports: r.program?.imports ?? [], diagnostics: r.diagnostics, ok: r.program !== undefined,
    };
  }
  used.set(text, hit);
  return hit;
}

/** A copy of an AST value with every span moved by `delta` (annotation constants copied as they are). */
function shifted<T>(value: T, delta: number): T {
  if (delta === 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => shifted(v, delta)) as T;
  const o = value as Record<string, unknown>;
  if (typeof o.file === "string" && typeof o.start === "number" && typeof o.end === "number" && !("kind" in o)) {
    return { ...o, start: o.start + delta, end: (o.end as number) + delta } as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in o) {
    // `{ value, span }` of an annotation argument: the value is a constant, never a span.
    out[key] = key === "value" && "span" in o && !("kind" in o) ? o[key] : shifted(o[key], delta);
  }
  return out as T;
}

export function recoveringParse(source: string, file: string, cache: PieceCache = new Map()): RecoveredParse {
  const used: PieceCache = new Map();
  const starts = pieceStarts(source);
  const ends = [...starts.slice(1), source.length];
  const decls: Decl[] = [];
  const body: Stmt[] = [];
  const tests: TestDecl[] = [];
  const evals: EvalDecl[] = [];
  const imports: ImportDecl[] = [];
  let replay: ReplaySetup | undefined;
  const syntaxErrors: Diagnostic[] = [];
  let budget = MAX_PARSED_FACTOR * source.length;
  let failed = 0;
  const droppedNames: string[] = [];
  for (let i = 0; i < starts.length; ) {
    let piece = parsePiece(cache, used, source.slice(starts[i], ends[i]), file);
    let last = i;
    // Only a parse that ran out of text (failed at its end) may be completed by the next piece.
    let tail = piece;
    for (let j = i + 1; !piece.ok && failedAtEnd(tail, ends[j - 1] - starts[i]) && j < starts.length && j - i <= MAX_MERGE && budget > 0; j++) {
      budget -= ends[j] - starts[i];
      tail = parsePiece(cache, used, source.slice(starts[i], ends[j]), file);
      if (tail.ok) {
        piece = tail;
        last = j;
      }
    }
    const delta = starts[i];
    if (piece.ok) {
      if (piece.placed?.offset !== delta) {
        piece.placed = {
          offset: delta, decls: shifted(piece.decls, delta), body: shifted(piece.body, delta),
          tests: shifted(piece.tests, delta), evals: shifted(piece.evals, delta), replay: piece.replay && shifted([piece.replay], delta)[0],
          imports: shifted(piece.imports, delta),
        };
      }
      decls.push(...piece.placed.decls);
      body.push(...piece.placed.body);
      tests.push(...piece.placed.tests);
      evals.push(...piece.placed.evals);
      imports.push(...piece.placed.imports);
      replay ??= piece.placed.replay;
    } else {
      syntaxErrors.push(...shifted(piece.diagnostics, delta));
      const name = DECLARATION_HEAD.exec(piece.text)?.[1];
      if (name) droppedNames.push(name);
    }
    i = last + 1;
    if (!piece.ok && ++failed >= MAX_FAILED_PIECES && i < starts.length) {
      syntaxErrors.push(warning(TOO_MANY_ERRORS, { file, start: starts[i], end: starts[i] }, { code: PARSE_CODES.syntax }));
      break;
    }
  }
  cache.clear();
  for (const [k, v] of used) cache.set(k, v);
  const program: Program = { kind: "Program", file, decls, body, span: { file, start: 0, end: source.length } };
  if (tests.length > 0) program.tests = tests;
  if (evals.length > 0) program.evals = evals;
  if (replay) program.replay = replay;
  if (imports.length > 0) program.imports = imports;
  // A fn's `///` lines may sit in the piece before its own: read them from the whole text.
  attachDocComments(program, source);
  return { program, syntaxErrors, droppedNames };
}
