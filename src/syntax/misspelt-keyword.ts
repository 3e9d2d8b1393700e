/**
 * A misspelt declaration keyword at the top level (`shema X {`, `tol f(`, `agnet A {`).
 * Written that way it is not a syntax error at first: `shema X { a: int }` reads as the
 * statements `shema`, `X` and an object, so the checker would answer with a cascade of
 * unknown names far from the slip. A line that opens, outside every bracket, with a word
 * one slip away from a declaration keyword, then a name, then `{`, `(` or `=` — a shape
 * no sensible pair of statements takes — is reported once, at the word, with the keyword.
 * The candidate lines come from the lexical scan (`lineWords`), so this costs one regular
 * expression per top-level line. `mayHaveMisspeltKeyword` first looks at every line start
 * (a superset of the line words: it ignores brackets, strings and comments) with one
 * regular expression, so a program with no candidate at all needs no lexical scan.
 */
import { type Diagnostic, error } from "../diagnostics/diagnostic";
import { PARSE_CODES } from "../diagnostics/catalog/parse-codes";
import { closestName } from "../diagnostics/did-you-mean";
import { DECLARATION_KEYWORDS, KEYWORDS } from "./keywords";

/** The words that begin a declaration (`fn` is left out: one letter from it is any `f x(`); a keyword is never a misspelling of another. */
const SLIP_CANDIDATES = DECLARATION_KEYWORDS.filter((k) => k !== "fn");

/** The word, then a name and `{` `(` `=` on the same line. */
const DECLARATION_SHAPE = /([A-Za-z_][A-Za-z0-9_]*)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*[({=]/y;

export function misspeltKeyword(source: string, file: string, lineWords: readonly number[]): Diagnostic | undefined {
  for (const at of lineWords) {
    DECLARATION_SHAPE.lastIndex = at;
    const word = DECLARATION_SHAPE.exec(source)?.[1];
    if (word === undefined || KEYWORDS.has(word)) continue;
    const meant = closestName(word, SLIP_CANDIDATES);
    if (meant === undefined) continue;
    return error(
      `Unknown declaration keyword '${word}'`,
      { file, start: at, end: at + word.length },
      { code: PARSE_CODES.misspeltKeyword, hints: [`did you mean \`${meant}\`?`] },
    );
  }
  return undefined;
}

/** The shape at any line start: a superset of the line words `misspeltKeyword` tries. */
const ANY_LINE_SHAPE = /^\uFEFF?[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*[({=]/gm;

/** False when no line of `source` could be a misspelt declaration (then `misspeltKeyword` finds none). */
export function mayHaveMisspeltKeyword(source: string): boolean {
  for (const match of source.matchAll(ANY_LINE_SHAPE)) {
    if (!KEYWORDS.has(match[1]) && closestName(match[1], SLIP_CANDIDATES) !== undefined) return true;
  }
  return false;
}
