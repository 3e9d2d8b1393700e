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
      const { position, message } = describeSyntaxError(result, source);
      return { diagnostics: [error(message, { file, start: position, end: position })] };
    }
    const ctx: ParseContext = {
      file,
      base: 0,
      diagnostics,
      parseSegment: (text, offset) => parseSegment(ctx, text, offset),
    };
    const program = withParseContext(ctx, () => convert(result)) as Program;
    return diagnostics.length > 0 ? { diagnostics } : { program, diagnostics };
  } catch (e) {
    // Only pathological input gets here (nesting deep enough to exhaust the stack).
    const message = e instanceof RangeError ? "Program is nested too deeply to parse" : `Internal parser error: ${String(e)}`;
    return { diagnostics: [...diagnostics, error(message, { file, start: 0, end: 0 })] };
  }
}

/** Parses one interpolation segment that starts at file offset `offset`. */
function parseSegment(outer: ParseContext, text: string, offset: number): Expr | undefined {
  const result = lumaGrammar().match(text, "InterpExpr");
  if (result.failed()) {
    const { position, message } = describeSyntaxError(result, text);
    const at = offset + position;
    outer.diagnostics.push(error(`${message} in string interpolation`, { file: outer.file, start: at, end: at }));
    return undefined;
  }
  return withParseContext({ ...outer, base: offset }, () => convert(result) as Expr);
}

/** Runs the `ast` operation on a successful match. */
const convert = (result: ohm.MatchResult): unknown => (lumaSemantics()(result) as { ast(): unknown }).ast();
