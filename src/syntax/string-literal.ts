/**
 * String literals: escape decoding and `{expr}` interpolation.
 *
 * The grammar lexes a string into parts (`strText`, `strEscape`, a balanced `interp`
 * segment, or a lone `{` that opened no balanced segment). Ohm lexical rules cannot
 * apply the syntactic `Expr`, so each segment is matched on its own through the context's
 * `parseSegment`, which shifts every span by the segment's offset in the file.
 *
 * Strings in constant positions (config values, annotation arguments, enum values,
 * keys) are never interpolated: their braces are kept as written. A `system: "…"` string
 * with a `{…}` also carries its `template` (`withSystemTemplate`, shared by both parsers),
 * which an agent's `system` fills with the agent's parameters.
 */
import type * as ohm from "ohm-js";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";
import { type Diagnostic, error } from "../diagnostics/diagnostic";
import type { Entry, Expr, Span, StrPart, TemplatePart } from "./ast";
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

/**
 * A `system: "…"` entry (`source`: its value as written) gets the string's `template`
 * when it holds a `{…}`: an agent's `system` interpolates the agent's parameters. No other
 * key's string carries one (their braces are text).
 */
export function withSystemTemplate(entry: Entry, source: string): void {
  const value = entry.value;
  if (entry.key !== "system" || value.kind !== "Lit" || typeof value.value !== "string") return;
  const template = configTemplate(source, value.span.start, value.span.file);
  if (template) value.template = template;
}

/**
 * The `template` of a config string, from its source (quotes included) starting at file
 * offset `start`: text with escapes decoded, and each `{…}` (balanced as the lexer balances
 * an `interp`: nested strings and braces) as a hole; a `{` that no `}` closes is a hole
 * with `closed: false`. Undefined when the string has no `{` outside an escape — the common case.
 */
export function configTemplate(source: string, start: number, file: string): TemplatePart[] | undefined {
  const end = source.length - 1;
  if (!source.includes("{")) return undefined;
  const parts: TemplatePart[] = [];
  let text = "";
  let i = 1;
  while (i < end) {
    const c = source[i];
    if (c === "\\") {
      text += ESCAPES[source[i + 1]] ?? source[i + 1];
      i += 2;
    } else if (c === "{") {
      const close = balancedEnd(source, i, end);
      if (text) parts.push(text);
      text = "";
      const span: Span = { file, start: start + i, end: start + (close > 0 ? close : i + 1) };
      parts.push({ kind: "Hole", source: close > 0 ? source.slice(i + 1, close - 1) : "", span, closed: close > 0 });
      i = close > 0 ? close : i + 1;
    } else {
      text += c;
      i++;
    }
  }
  if (text) parts.push(text);
  return parts.some((p) => typeof p !== "string") ? parts : undefined;
}

/** After the `}` closing the `{` at `at` (nested strings and braces skipped), or -1 before `end`. */
function balancedEnd(source: string, at: number, end: number): number {
  let depth = 0;
  let inString = false;
  for (let i = at; i < end; i++) {
    const c = source[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return -1;
}
