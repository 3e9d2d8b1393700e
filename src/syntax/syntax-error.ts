/**
 * Turns Ohm's expected-set at the rightmost failure into one readable message, e.g.
 * `Expected "}" or a field`.
 *
 * Ohm lists every token any alternative could have accepted. Readers want the shape
 * instead, so the lists of expression starters, statement keywords and declaration
 * keywords collapse into "an expression", "a statement" and "a declaration" (see
 * GROUPS), and the optional separators (`,` `;` between block entries) are dropped.
 */
import type * as ohm from "ohm-js";
import type { DiagnosticExtra } from "../diagnostics/diagnostic";
import { lineColOf } from "../diagnostics/source-position";
import { UNTERMINATED_CODE, UNTERMINATED_MESSAGE, scanLexical } from "./lexical-scan";
import { syntaxErrorExtra } from "./syntax-hints";
import { UNCLOSED_BRACE_MESSAGE } from "./string-literal";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";

const EXPRESSION_STARTERS = [
  "a name", "a number", '"\\""', '"true"', '"false"', '"null"', '"tool"', '"ask"', '"stream"', '"parallel"', '"query"',
  '"command"', '"("', '"["', '"{"', '"-"', '"not"',
];
const BINARY_OPERATORS = ['"or"', '"and"', '"=="', '"!="', '"<"', '"<="', '">"', '">="', '"+"', '"-"', '"*"', '"/"', '"%"'];
const POSTFIX_STARTERS = ['"."', '"["', '"("'];
const STATEMENT_KEYWORDS = ['"if"', '"for"', '"while"', '"return"', '"try"', '"break"', '"continue"', '"assert"', '"score"'];
const DECLARATION_KEYWORDS = ['"schema"', '"tool"', '"agent"', '"model"', '"fn"', '"datasource"', '"query"', '"command"', '"test"', '"eval"', '"replay"', '"import"'];
const TYPE_STARTERS = ["a name", '"any"', '"bool"', '"float"', '"int"', '"string"', '"enum"'];
const VALUE_STARTERS = ["a name", "a number", '"\\""', '"true"', '"false"', '"null"', '"["', '"{"'];

/**
 * Collapsing rules, applied in order: when every marker is expected, the members are
 * replaced by the label. A `null` label drops the members: after a complete expression,
 * "or an operator" is noise next to the `,` or `)` the reader actually forgot.
 */
const GROUPS: { markers: string[]; members: string[]; label: string | null }[] = [
  { markers: ['"=="'], members: [...BINARY_OPERATORS, ...POSTFIX_STARTERS], label: null },
  { markers: ["a name", "a number", '"ask"'], members: EXPRESSION_STARTERS, label: "an expression" },
  { markers: ["an expression", '"if"'], members: ["an expression", ...STATEMENT_KEYWORDS], label: "a statement" },
  { markers: ['"schema"', '"agent"'], members: DECLARATION_KEYWORDS, label: "a declaration" },
  { markers: ['"any"', '"bool"'], members: TYPE_STARTERS, label: "a type" },
  { markers: ["a number", '"null"', '"["'], members: VALUE_STARTERS, label: "a value" },
];

/**
 * Ohm calls failures inside optional parts "fluffy" and hides them; here they are kept
 * (an optional parameter list still tells what may come next) except for the blanks
 * allowed before `(` `[` on the callee's line.
 */
const BLANKS = ['" "', '"\\t"'];

/**
 * What may only open a file — a shebang, a byte order mark — is never what the reader
 * meant at the failure: listed, it ended a message with an invisible U+FEFF (`"#!" or "﻿"`).
 */
const FILE_START_ONLY = ['"#!"', JSON.stringify("\uFEFF")];

/** Plain words for what Ohm names by its grammar text. */
const RENAMES: Record<string, string> = { "end of input": "the end of the file", '"\\""': "a string" };

interface OhmFailure {
  getText(): string;
  getType(): string;
}

function expectedItems(failures: OhmFailure[]): string[] {
  let items = [
    ...new Set(
      failures.map((f) => (f.getType() === "string" ? JSON.stringify(f.getText()) : f.getText())),
    ),
  ].filter((item) => !BLANKS.includes(item) && !FILE_START_ONLY.includes(item));
  // `;` only appears where entries may be separated, and there `,` is optional too.
  if (items.includes('";"')) items = items.filter((i) => i !== '";"' && i !== '","');
  for (const { markers, members, label } of GROUPS) {
    if (!markers.every((m) => items.includes(m))) continue;
    const rest = items.filter((item) => !members.includes(item));
    if (label) items = [label, ...rest];
    else if (rest.length > 0) items = rest;
    else items = ["an operator"];
  }
  return items;
}

function joinAlternatives(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "something else";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

export interface SyntaxErrorAt extends Required<DiagnosticExtra> {
  /** Offset in the matched text. */
  position: number;
  message: string;
}

/**
 * The message and position of a failed match of `input`, or of the part of it that starts
 * at `base` (a large program is matched one piece at a time): positions are in `input`.
 */
export function describeSyntaxError(result: ohm.MatchResult, input: string, base = 0): SyntaxErrorAt {
  const failed = result as ohm.FailedMatchResult & { getRightmostFailures(): OhmFailure[] };
  const position = base + failed.getRightmostFailurePosition();
  // A string or block comment left open swallows the rest of the file, so Ohm fails
  // somewhere after it; the opening is the useful place to point at.
  const scan = scanLexical(input);
  const open = scan.unterminated;
  if (open && open.start <= position) {
    if (open.brace !== undefined) {
      return { position: open.brace, message: UNCLOSED_BRACE_MESSAGE, code: PARSE_CODES.unclosedInterpolation, hints: [] };
    }
    return { position: open.start, message: UNTERMINATED_MESSAGE[open.kind], code: UNTERMINATED_CODE[open.kind], hints: [] };
  }
  const items = expectedItems(failed.getRightmostFailures());
  const message = `Expected ${joinAlternatives(items.map((i) => RENAMES[i] ?? i))}`;
  const extra = syntaxErrorExtra(input, position);
  // Failing at the very end usually means a bracket was never closed: name the opener.
  if (scan.unclosed !== undefined && input.slice(position).trim() === "") {
    const { line, col } = lineColOf(input, scan.unclosed);
    extra.hints = [...extra.hints, `The "${input[scan.unclosed]}" at ${line}:${col} is never closed.`];
  }
  return { position, message, ...extra };
}
