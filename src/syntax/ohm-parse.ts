/**
 * The Ohm path of `parse()`: the grammar (`grammar.ohm`, replayed from its generated recipe)
 * recognises the program; the `ast` operation converts the CST, computing a file-offset span
 * for every node. String interpolation segments are matched separately with the `InterpExpr`
 * start rule and converted with their offset added, so their spans and errors point into
 * the original file. Bad input never throws: it yields diagnostics. It is the normative
 * parser — every syntax error comes from here — and it runs only where the fast parser
 * (`fast-parse/`) declines, so this module (and ohm-js with it) is loaded on first need.
 *
 * Large sources are matched in pieces of about CHUNK_CHARS, cut where a line opens with a
 * declaration keyword outside every bracket, string and comment (found by the linear
 * lexical scan): Ohm's memo table grows with the input it matches, and for a whole 1 MB
 * program it took gigabytes. A top-level item cannot run on into a line that starts with
 * a declaration keyword, so each piece matches and converts exactly as inside the whole,
 * with its offset as the base of its spans. A piece that fails at its very end (`x = a +`
 * before `tool t(…)`) may be the start of an item the whole would have read further, so it
 * is joined with the next and matched again; a failure inside a piece is the whole's too.
 *
 * When the fast parser declined while reading a top-level item, it says where the items
 * began (`FastStop`), and the pieces are matched from the last cut that is at or before
 * the item it declined and is itself an item's start. Every piece before that cut holds
 * complete items the fast parser took — the grammar's items, as the differential tests
 * hold — so the full path would match them all and reach the cut with nothing joined over
 * it; from there both match the same pieces. A match failure ends the loop at once, dropping
 * what converting the pieces before found, so it is the same failure, message, code, hints
 * and position, whatever the item was declined for. Only a match failure is taken from
 * there: any other ending (a program, diagnostics of the conversion, which depend on the
 * pieces before — a second `replay`, the one nesting error —, a stack overflow) is found
 * again by matching every piece from the start. A syntax error in the middle of a 1 MB
 * program is then found in a fraction of the time of matching the half before it.
 *
 * Given `parse()`'s lexical scan, a string or block comment left open ends the last piece:
 * the rest of the file is inside it, and Ohm matching it cost over 600 bytes of memory per
 * byte (a 10 MB unterminated comment, 6 GB). The pieces before it are matched as ever; a
 * failure in them is the whole's (no attempt there reaches the literal, so none sees what
 * follows it); if they all match, the whole fails at the literal, and its error is the
 * unterminated one — the one `describeSyntaxError` gives for a failure at or after it. The
 * conversion is skipped then: the whole never matched, so it would not have run. The scan
 * also answers a stack overflow without being run again.
 */
import { attachDocComments } from "./doc-comments";
import type * as ohm from "ohm-js";
import { type Diagnostic, error } from "../diagnostics/diagnostic";
import type { EvalDecl, Expr, ImportDecl, Program, ReplaySetup, TestDecl } from "./ast";
import type { ParseResult } from "./parse";
import { lumaGrammar } from "./luma-grammar";
import { lumaSemantics } from "./luma-semantics";
import { type ParseContext, withParseContext } from "./parse-context";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";
import { type LexicalScan, UNTERMINATED_CODE, UNTERMINATED_MESSAGE, scanLexical } from "./lexical-scan";
import { DECLARATION_KEYWORDS } from "./keywords";
import { NESTING_MESSAGE } from "./nesting-limit";
import { describeSyntaxError } from "./syntax-error";
import { secondFileReplay } from "./to-ast-tests";
import { unclosedBrace } from "./string-literal";

/** The size a piece of a large source grows to before it is cut at the next declaration. */
export const CHUNK_CHARS = 4 * 1024;

const DECLARATION_START = new RegExp(`(?:${DECLARATION_KEYWORDS.join("|")})(?![A-Za-z0-9_])`, "y");

/**
 * `parse()` by the grammar; `lineWords` is the lexical scan's (a misspelt keyword already
 * ruled out); `itemStarts` the fast parser's, where it declined an item (`FastStop`).
 */
export function ohmParse(
  source: string, file: string, lineWords: readonly number[], chunkChars = CHUNK_CHARS, itemStarts?: readonly number[],
  lexical?: LexicalScan,
): ParseResult {
  const cuts = [...chunkStarts(source, lineWords, chunkChars), lexical?.unterminated?.start ?? source.length];
  const near = itemStarts ? resumePiece(cuts, itemStarts) : 0;
  let result: ParseResult | undefined;
  if (near > 0) {
    const piece = matchPieces(source, file, cuts, near, lexical);
    if (piece.matchFailed) result = piece.result;
  }
  result ??= matchPieces(source, file, cuts, 0, lexical).result;
  // `///` above a fn is its doc (doc-comments.ts), as the fast parser sets it.
  if (result.program) attachDocComments(result.program, source);
  return result;
}

/**
 * The index of the last cut that is at or before the failing item (the last of
 * `itemStarts`) and is an item's start, or 0. Both lists ascend: one walk back over each.
 */
function resumePiece(cuts: readonly number[], itemStarts: readonly number[]): number {
  if (itemStarts.length === 0) return 0;
  const failing = itemStarts[itemStarts.length - 1];
  let j = itemStarts.length - 1;
  for (let k = cuts.length - 2; k > 0; k--) {
    if (cuts[k] > failing) continue;
    while (j > 0 && itemStarts[j] > cuts[k]) j--;
    if (itemStarts[j] === cuts[k]) return k;
  }
  return 0;
}

/** Matches and converts the pieces from `cuts[first]` on; `matchFailed` when one does not match. */
function matchPieces(
  source: string, file: string, cuts: readonly number[], first: number, lexical?: LexicalScan,
): { result: ParseResult; matchFailed?: true } {
  const open = lexical?.unterminated;
  const diagnostics: Diagnostic[] = [];
  try {
    const ctx: ParseContext = {
      file,
      base: 0,
      diagnostics,
      nesting: { depth: 0, reported: false },
      parseSegment: (text, offset) => parseSegment(ctx, text, offset),
    };
    const program: Program = { kind: "Program", file, decls: [], body: [], span: { file, start: 0, end: source.length } };
    const tests: TestDecl[] = [];
    const evals: EvalDecl[] = [];
    const imports: ImportDecl[] = [];
    let replay: ReplaySetup | undefined;
    for (let from = first, next = first + 1; next < cuts.length; next++) {
      const [start, end] = [cuts[from], cuts[next]];
      const result = lumaGrammar().match(source.slice(start, end), "Program");
      if (result.failed()) {
        const { position, message, code, hints } = describeSyntaxError(result, source, start);
        if (position >= contentEnd(source, end) && next < cuts.length - 1) continue; // join with the next piece
        return { result: { diagnostics: [error(message, { file, start: position, end: position }, { code, hints })] }, matchFailed: true };
      }
      // Everything before the literal left open matched: the whole fails at that literal.
      if (open && next === cuts.length - 1) return { result: unterminatedAt(file, open), matchFailed: true };
      const piece = withParseContext({ ...ctx, base: start }, () => convert(result)) as Program;
      program.decls.push(...piece.decls);
      program.body.push(...piece.body);
      // `luma test`'s blocks and a file-level `replay` come along with their piece.
      if (piece.tests) tests.push(...piece.tests);
      if (piece.evals) evals.push(...piece.evals);
      if (piece.imports) imports.push(...piece.imports);
      if (piece.replay && replay) {
        diagnostics.push(secondFileReplay(piece.replay.span));
      } else if (piece.replay) replay = piece.replay;
      from = next;
    }
    // One key order however the pieces fell (the fast parser's, the whole file's).
    if (tests.length > 0) program.tests = tests;
    if (evals.length > 0) program.evals = evals;
    if (replay) program.replay = replay;
    if (imports.length > 0) program.imports = imports;
    return { result: diagnostics.length > 0 ? { diagnostics } : { program, diagnostics } };
  } catch (e) {
    // Ohm recurses once per nesting level while matching, before the limit of
    // `nesting-limit.ts` can be applied: input nested far past it exhausts the stack
    // there. The pre-scan finds where the limit was crossed — or the string left open
    // before it, whose `{`s Ohm was trying as interpolations.
    if (!(e instanceof RangeError)) {
      return { result: { diagnostics: [...diagnostics, error(`Internal parser error: ${String(e)}`, { file, start: 0, end: 0 }, { code: PARSE_CODES.internalParser })] } };
    }
    const { deepAt = 0, unterminated } = lexical ?? scanLexical(source);
    if (unterminated && unterminated.start <= deepAt) return { result: unterminatedAt(file, unterminated) };
    return { result: { diagnostics: [error(NESTING_MESSAGE, { file, start: deepAt, end: deepAt }, { code: PARSE_CODES.nesting })] } };
  }
}

/**
 * The syntax error of a string or block comment that opens at `open.start` and is never
 * closed — or, for a string whose `{` swallowed a line end (`open.brace`), that `{`'s E0107.
 */
function unterminatedAt(file: string, open: NonNullable<LexicalScan["unterminated"]>): ParseResult {
  const { kind, start, brace } = open;
  if (brace !== undefined) return { diagnostics: [unclosedBrace(file, brace)] };
  return { diagnostics: [error(UNTERMINATED_MESSAGE[kind], { file, start, end: start }, { code: UNTERMINATED_CODE[kind] })] };
}

/** Where the pieces of `source` begin: 0, then declaration starts about `size` apart. */
export function chunkStarts(source: string, lineWords: readonly number[], size: number): number[] {
  const starts = [0];
  for (const at of lineWords) {
    if (at - starts[starts.length - 1] < size) continue;
    DECLARATION_START.lastIndex = at;
    if (DECLARATION_START.test(source)) starts.push(at);
  }
  return starts;
}

/** The offset after the last character of `source[0, end)` that is not a blank. */
function contentEnd(source: string, end: number): number {
  let k = end;
  while (k > 0 && source.charCodeAt(k - 1) <= 32) k--;
  return k;
}

const LITERAL_BRACE_HINT = "For a literal brace in a string, write \\{ and \\}.";

/** Parses one interpolation segment that starts at file offset `offset`. */
function parseSegment(outer: ParseContext, text: string, offset: number): Expr | undefined {
  const result = lumaGrammar().match(text, "InterpExpr");
  if (result.failed()) {
    // A prompt showing JSON (`"Reply as { text: … }"`) is the usual cause: say how to write a brace.
    const { position, message } = describeSyntaxError(result, text);
    const at = offset + position;
    outer.diagnostics.push(
      error(`${message} in string interpolation`, { file: outer.file, start: at, end: at }, {
        code: PARSE_CODES.unclosedInterpolation,
        hints: [LITERAL_BRACE_HINT],
      }),
    );
    return undefined;
  }
  return withParseContext({ ...outer, base: offset }, () => convert(result) as Expr);
}

/** Runs the `ast` operation on a successful match. */
const convert = (result: ohm.MatchResult): unknown => (lumaSemantics()(result) as { ast(): unknown }).ast();
