/**
 * Mistakes made in the first hour with Luma, each with its catalog code and a hint
 * naming the Luma spelling. A foreign token is recognised at the position where the
 * parse failed (Ohm stops right where it starts), so a sticky regular expression at
 * that offset is enough. A foreign statement head (`func f(…)`) parses as
 * names, so Ohm fails later, inside it: it is recognised on the line that holds the
 * failure or on the nearest line above it that is indented less (the enclosing head).
 */
import type { DiagnosticExtra } from "../diagnostics/diagnostic";
import { PARSE_CODES, type ParseCode } from "../diagnostics/catalog/parse-codes";

/** `line`, when given, must match the failure's line too. */
const MISTAKES: { pattern: RegExp; line?: RegExp; code: ParseCode; hint: string }[] = [
  { pattern: /&&/y, code: PARSE_CODES.foreignOperator, hint: "Luma writes `and` for `&&`." },
  { pattern: /\|\|/y, code: PARSE_CODES.foreignOperator, hint: "Luma writes `or` for `||`." },
  { pattern: /!(?!=)/y, code: PARSE_CODES.foreignOperator, hint: "Luma writes `not` for `!`." },
  { pattern: /'/y, code: PARSE_CODES.singleQuotes, hint: 'Strings use double quotes: "…".' },
  {
    pattern: /\)/y,
    line: /\btool\s+[A-Za-z_][A-Za-z0-9_]*\s*\(\s*\)/,
    code: PARSE_CODES.syntax,
    hint: "A tool is called with one object: `tool name({})`, or `tool name({ field: value })`.",
  },
  { pattern: /#/y, code: PARSE_CODES.syntax, hint: "Comments are `//` (or `/* … */`); `#!` only opens a script's first line." },
  {
    pattern: /=(?!=)/y,
    line: /^\s*(\}\s*)?(else\s+)?if\b/,
    code: PARSE_CODES.assignInCondition,
    hint: "To compare, write `==`; `=` assigns.",
  },
];

const HEADS: { pattern: RegExp; code: ParseCode; hint: string }[] = [
  {
    pattern: /^\s*(\}\s*)?elif\b/,
    code: PARSE_CODES.foreignKeyword,
    hint: "Luma writes `else if` for `elif`: } else if cond { … }.",
  },
  {
    pattern: /^\s*(func|function|def)\s+[A-Za-z_]\w*\s*\(/,
    code: PARSE_CODES.foreignKeyword,
    hint: "Functions are declared with `fn`: fn name(param: Type) -> Type { … }.",
  },
];

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** The failure's line, then the nearest line above it indented less (its enclosing head). */
function headLines(input: string, position: number): string[] {
  const eol = input.indexOf("\n", position);
  const lines = input.slice(0, eol < 0 ? input.length : eol).split("\n");
  const failing = lines[lines.length - 1];
  for (let i = lines.length - 2; i >= 0; i--) {
    if (lines[i].trim() !== "" && indentOf(lines[i]) < indentOf(failing)) return [failing, lines[i]];
  }
  return [failing];
}

/** The code and hints for a syntax error at `position` of `input`. */
export function syntaxErrorExtra(input: string, position: number): Required<DiagnosticExtra> {
  const heads = headLines(input, position);
  for (const { pattern, line, code, hint } of MISTAKES) {
    pattern.lastIndex = position;
    if (pattern.test(input) && (!line || line.test(heads[0]))) return { code, hints: [hint] };
  }
  for (const line of heads) {
    for (const { pattern, code, hint } of HEADS) if (pattern.test(line)) return { code, hints: [hint] };
  }
  return { code: PARSE_CODES.syntax, hints: [] };
}
