/**
 * Mistakes made in the first hour with Luma, recognised at the position where the
 * parse failed, each with its catalog code and a hint naming the Luma spelling. The
 * failure position is where the foreign token starts (Ohm stops right there), so a
 * sticky regular expression at that offset is enough; no guessing further away.
 */
import type { DiagnosticExtra } from "../diagnostics/diagnostic";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";

const MISTAKES: { pattern: RegExp; code: string; hint: string }[] = [
  { pattern: /&&/y, code: PARSE_CODES.foreignOperator, hint: "Luma writes `and` for `&&`." },
  { pattern: /\|\|/y, code: PARSE_CODES.foreignOperator, hint: "Luma writes `or` for `||`." },
  { pattern: /!(?!=)/y, code: PARSE_CODES.foreignOperator, hint: "Luma writes `not` for `!`." },
  { pattern: /'/y, code: PARSE_CODES.singleQuotes, hint: 'Strings use double quotes: "…".' },
];

/** The code and hints for a syntax error at `position` of `input`. */
export function syntaxErrorExtra(input: string, position: number): Required<DiagnosticExtra> {
  for (const { pattern, code, hint } of MISTAKES) {
    pattern.lastIndex = position;
    if (pattern.test(input)) return { code, hints: [hint] };
  }
  return { code: PARSE_CODES.syntax, hints: [] };
}
