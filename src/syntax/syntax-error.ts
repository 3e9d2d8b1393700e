/**
 * Turns Ohm's expected-set at the rightmost failure into one readable message, e.g.
 * `Expected "}" or a field`.
 *
 * Ohm lists every token any alternative could have accepted. Readers want the shape
 * instead, so the lists of expression starters, statement keywords and declaration
 * keywords collapse into "an expression", "a statement" and "a declaration", and the
 * optional separators (`,` `;` between block entries) are dropped.
 */
import type * as ohm from "ohm-js";

const EXPRESSION_STARTERS = [
  "a name", "a number", '"\\""', '"true"', '"false"', '"null"', '"tool"', '"ask"', '"query"',
  '"command"', '"("', '"["', '"{"', '"-"', '"not"',
];
const STATEMENT_KEYWORDS = ['"if"', '"for"', '"return"', '"try"'];
const DECLARATION_KEYWORDS = ['"schema"', '"tool"', '"agent"', '"model"', '"fn"', '"datasource"', '"query"', '"command"'];

interface OhmFailure {
  getText(): string;
  getType(): string;
  isFluffy(): boolean;
}

/** Replaces the members of `group` with `label` when `markers` are all present. */
function collapse(items: string[], markers: string[], group: string[], label: string): string[] {
  if (!markers.every((m) => items.includes(m))) return items;
  const rest = items.filter((item) => !group.includes(item));
  return [label, ...rest];
}

function expectedItems(failures: OhmFailure[]): string[] {
  let items = [
    ...new Set(
      failures
        .filter((f) => !f.isFluffy())
        .map((f) => (f.getType() === "string" ? JSON.stringify(f.getText()) : f.getText())),
    ),
  ];
  // `;` only appears where entries may be separated, and there `,` is optional too.
  if (items.includes('";"')) items = items.filter((i) => i !== '";"' && i !== '","');
  items = collapse(items, ["a name", "a number"], EXPRESSION_STARTERS, "an expression");
  items = collapse(items, ["an expression", '"if"'], ["an expression", ...STATEMENT_KEYWORDS], "a statement");
  items = collapse(items, ['"schema"', '"agent"'], DECLARATION_KEYWORDS, "a declaration");
  // "end of input" is what Ohm expects after the last complete item; say it plainly.
  return items.map((i) => (i === "end of input" ? "the end of the file" : i));
}

function joinAlternatives(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "something else";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

export interface SyntaxErrorAt {
  /** Offset in the matched text. */
  position: number;
  message: string;
}

/** The message and position of a failed match of `input`. */
export function describeSyntaxError(result: ohm.MatchResult, input: string): SyntaxErrorAt {
  const failed = result as ohm.FailedMatchResult & { getRightmostFailures(): OhmFailure[] };
  const position = failed.getRightmostFailurePosition();
  if (input.startsWith("/*", position)) return { position, message: "Unterminated block comment" };
  const items = expectedItems(failed.getRightmostFailures());
  if (position === input.length && items.includes('"\\""')) {
    const start = unterminatedStringStart(input);
    if (start !== undefined) return { position: start, message: "Unterminated string" };
  }
  return { position, message: `Expected ${joinAlternatives(items)}` };
}

/**
 * The offset of a string literal that runs to the end of the input, if any. Strings may
 * span lines, so the failure Ohm reports is at the end of the file; the opening quote
 * is the useful place to point at. Skips comments, escapes and `{…}` segments (which
 * may hold strings of their own).
 */
export function unterminatedStringStart(input: string): number | undefined {
  const n = input.length;
  let i = input.startsWith("#!") ? n : 0;
  if (i === n && input.includes("\n")) i = input.indexOf("\n");
  // Scans a string whose opening quote is at `start`; returns the index after it, or -1.
  const scanString = (start: number): number => {
    let j = start + 1;
    while (j < n) {
      const c = input[j];
      if (c === '"') return j + 1;
      if (c === "\\") j += 2;
      else if (c === "{") j = scanSegment(j);
      else j++;
      if (j < 0) return -1;
    }
    return -1;
  };
  // Scans a `{…}` segment; an unbalanced `{` is plain text, as in the grammar.
  const scanSegment = (start: number): number => {
    let j = start + 1;
    while (j < n) {
      const c = input[j];
      if (c === "}") return j + 1;
      if (c === '"') {
        const end = scanString(j);
        if (end < 0) return start + 1;
        j = end;
      } else if (c === "{") j = scanSegment(j);
      else j++;
    }
    return start + 1;
  };
  while (i < n) {
    if (input.startsWith("//", i)) {
      const eol = input.indexOf("\n", i);
      i = eol < 0 ? n : eol + 1;
    } else if (input.startsWith("/*", i)) {
      const close = input.indexOf("*/", i + 2);
      i = close < 0 ? n : close + 2;
    } else if (input[i] === '"') {
      const end = scanString(i);
      if (end < 0) return i;
      i = end;
    } else i++;
  }
  return undefined;
}
