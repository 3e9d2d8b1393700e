/**
 * String literals: escape decoding and `{expr}` interpolation.
 *
 * The grammar lexes a string into parts (`strText`, `strEscape`, a balanced `interp`
 * segment, or a lone `{` that opened no balanced segment). Ohm lexical rules cannot
 * apply the syntactic `Expr`, so each segment is matched on its own through the context's
 * `parseSegment`, which shifts every span by the segment's offset in the file.
 *
 * Strings in constant positions (config values, annotation arguments, enum values,
 * keys) are never interpolated: their braces are kept as written.
 */
import type * as ohm from "ohm-js";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";
import { type Diagnostic, error } from "../diagnostics/diagnostic";
import type { Expr, StrPart } from "./ast";
import { enterNesting, leaveNesting } from "./nesting-limit";
import { parseContext, spanOf } from "./parse-context";

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", n: "\n", t: "\t", "{": "{", "}": "}" };

/** The `strPart` children of a `string` node. */
function partsOf(stringNode: ohm.Node): ohm.Node[] {
  return stringNode.child(1).children.map((part) => part.child(0));
}

function decodeEscape(escapeNode: ohm.Node): string {
  return ESCAPES[escapeNode.sourceString.slice(1)];
}

/** A string in a constant position: escapes decoded, braces literal. */
export function constString(stringNode: ohm.Node): string {
  let text = "";
  for (const part of partsOf(stringNode)) {
    text += part.ctorName === "strEscape" ? decodeEscape(part) : part.sourceString;
  }
  return text;
}

export const UNCLOSED_BRACE_MESSAGE = 'Unclosed "{" in string interpolation (write \\{ for a literal brace)';

/** The error for a `{` at file offset `at` that opens no balanced segment (the fast parser's too). */
export const unclosedBrace = (file: string, at: number): Diagnostic =>
  error(UNCLOSED_BRACE_MESSAGE, { file, start: at, end: at + 1 }, {
    code: PARSE_CODES.unclosedInterpolation,
  });

/** A string in an expression: a `Str` node whose parts alternate text and `{expr}`. */
export function interpolatedString(stringNode: ohm.Node): Expr {
  const ctx = parseContext();
  const parts: StrPart[] = [];
  let text = "";
  for (const part of partsOf(stringNode)) {
    switch (part.ctorName) {
      case "strText":
        text += part.sourceString;
        break;
      case "strEscape":
        text += decodeEscape(part);
        break;
      case "interp": {
        if (text) parts.push(text);
        text = "";
        const inner = part.sourceString.slice(1, -1);
        if (!enterNesting(part)) break;
        const expr = ctx.parseSegment(inner, ctx.base + part.source.startIdx + 1);
        leaveNesting();
        if (expr) parts.push(expr);
        break;
      }
      default:
        // A `{` with no matching `}` before the end of the string.
        ctx.diagnostics.push(unclosedBrace(ctx.file, ctx.base + part.source.startIdx));
        text += "{";
    }
  }
  if (text) parts.push(text);
  return { kind: "Str", parts, span: spanOf(stringNode) };
}
