/**
 * `parse(source, file)`: Luma source text → AST, or one syntax-error diagnostic.
 *
 * The grammar (`grammar.ohm`, replayed from its generated recipe) recognises the whole
 * program; the `ast` operation converts the CST, computing a file-offset span for every
 * node. String interpolation segments are matched separately with the `InterpExpr`
 * start rule and converted with their offset added, so their spans and errors point
 * into the original file. Bad input never throws: it yields diagnostics.
 */
import type * as ohm from "ohm-js";
import { type Diagnostic, error } from "../diagnostics/diagnostic";
import type { Expr, Program } from "./ast";
import { lumaGrammar } from "./luma-grammar";
import { lumaSemantics } from "./luma-semantics";
import { type ParseContext, withParseContext } from "./parse-context";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";
import { UNTERMINATED_CODE, UNTERMINATED_MESSAGE, scanLexical } from "./lexical-scan";
import { NESTING_MESSAGE } from "./nesting-limit";
import { describeSyntaxError } from "./syntax-error";

export interface ParseResult {
  /** Present when there were no errors. */
  program?: Program;
  diagnostics: Diagnostic[];
}

export function parse(source: string, file: string): ParseResult {
  const diagnostics: Diagnostic[] = [];
  try {
    const result = lumaGrammar().match(source, "Program");
    if (result.failed()) {
      const { position, message, code, hints } = describeSyntaxError(result, source);
      return { diagnostics: [error(message, { file, start: position, end: position }, { code, hints })] };
    }
    const ctx: ParseContext = {
      file,
      base: 0,
      diagnostics,
      nesting: { depth: 0, reported: false },
      parseSegment: (text, offset) => parseSegment(ctx, text, offset),
    };
    const program = withParseContext(ctx, () => convert(result)) as Program;
    return diagnostics.length > 0 ? { diagnostics } : { program, diagnostics };
  } catch (e) {
    // Ohm recurses once per nesting level while matching, before the limit of
    // `nesting-limit.ts` can be applied: input nested far past it exhausts the stack
    // there. The pre-scan finds where the limit was crossed — or the string left open
    // before it, whose `{`s Ohm was trying as interpolations.
    if (!(e instanceof RangeError)) {
      return { diagnostics: [...diagnostics, error(`Internal parser error: ${String(e)}`, { file, start: 0, end: 0 })] };
    }
    const { deepAt = 0, unterminated } = scanLexical(source);
    const [message, code, at] =
      unterminated && unterminated.start <= deepAt
        ? [UNTERMINATED_MESSAGE[unterminated.kind], UNTERMINATED_CODE[unterminated.kind], unterminated.start]
        : [NESTING_MESSAGE, PARSE_CODES.nesting, deepAt];
    return { diagnostics: [error(message, { file, start: at, end: at }, { code })] };
  }
}

const LITERAL_BRACE_HINT = "For a literal brace in a string, write \\{ and \\}.";

/** Parses one interpolation segment that starts at file offset `offset`. */
function parseSegment(outer: ParseContext, text: string, offset: number): Expr | undefined {
  const result = lumaGrammar().match(text, "InterpExpr");
  if (result.failed()) {
    // A prompt showing JSON (`"Reply as { text: … }"`) is the usual cause: say how to write a brace.
    const { position, message } = describeSyntaxError(result, text);
    const at = offset + position;
    const extra = { code: PARSE_CODES.unclosedInterpolation, hints: [LITERAL_BRACE_HINT] };
    outer.diagnostics.push(error(`${message} in string interpolation`, { file: outer.file, start: at, end: at }, extra));
    return undefined;
  }
  return withParseContext({ ...outer, base: offset }, () => convert(result) as Expr);
}

/** Runs the `ast` operation on a successful match. */
const convert = (result: ohm.MatchResult): unknown => (lumaSemantics()(result) as { ast(): unknown }).ast();
