/**
 * The state of a fast parse and its lexical tokens, read straight off the characters.
 *
 * The fast parser (`fast-program.ts`) is a recursive-descent mirror of `grammar.ohm`: each
 * function here is one lexical rule of the grammar, each parse function elsewhere one
 * syntactic rule, tried in the grammar's order with the same backtracking. Every function
 * follows one convention — on failure it leaves `pos` where it found it — so a node's end
 * is always `pos` after its last element, as Ohm's source intervals are.
 *
 * It reports one error only, a `{` in a string that opens no interpolation (its diagnostics
 * the Ohm path's, see `fast-program.ts`); whatever else it cannot take (a rule failing at
 * the top, a nesting past the limit, anything the Ohm path would answer with a diagnostic)
 * throws DECLINE, and `parse()` hands the source to the Ohm path, whose messages stay the
 * normative ones.
 * Counters shared by a parse and its interpolation segments bound its recursion (DECLINE
 * rather than a stack overflow) and its work (DECLINE rather than super-linear time).
 */
import type { Span } from "../ast";
import type { PrefixOp } from "../operator-precedence";
import { MAX_NESTING } from "../lexical-scan";
import { KEYWORDS } from "../keywords";

/** Thrown when the fast parser does not take the input: the Ohm path decides. */
export const DECLINE = Symbol("fast-parse-decline");

export function decline(): never {
  throw DECLINE;
}

/** Counters shared by a parse and the parses of its interpolation segments. */
export interface Shared {
  /** The nesting depth `nesting-limit.ts` would be at while converting the current node. */
  depth: number;
  /** The deepest `depth` entered since the innermost deferred count began (see `deferEnd`). */
  peak: number;
  /** Recursive calls open now: bounded well below the JS stack. */
  rec: number;
  /** Work done (operands, statements, items tried) and its bound, linear in the input. */
  work: number;
  workLimit: number;
  /** The `Str` nodes read with a `{` that opens no segment, and those braces' file offsets. */
  loneBraces?: WeakMap<object, number[]>;
}

export interface FastState {
  src: string;
  pos: number;
  /** File offset of `src[0]` (non-zero inside an interpolation segment). */
  base: number;
  file: string;
  shared: Shared;
  /** Outcomes of strings and interpolations lexed from each `"` / `{` (end + 1, or 0 = failed). */
  lexMemo: Map<number, number>;
  /** The last skip, from → to: alternatives tried at one place skip the same blanks once. */
  skipFrom: number;
  skipTo: number;
  /** What the last operand read left: its prefix operators, and its postfix part's start. */
  prefixes: { op: PrefixOp; start: number }[];
  postStart: number;
}

/** Deeper than any program a person writes; far below what the JS stack holds. */
const MAX_RECURSION = 400;

export function newState(src: string, base: number, file: string, shared: Shared): FastState {
  return { src, pos: 0, base, file, shared, lexMemo: new Map(), skipFrom: -1, skipTo: -1, prefixes: [], postStart: 0 };
}

export function span(s: FastState, start: number, end: number): Span {
  return { file: s.file, start: s.base + start, end: s.base + end };
}

// ---------------------------------------------------------------- bounds

export function recurse(s: FastState): void {
  const sh = s.shared;
  if (++sh.rec > MAX_RECURSION) decline();
}

export function unrecurse(s: FastState): void {
  s.shared.rec--;
}

export function work(s: FastState): void {
  if (++s.shared.work > s.shared.workLimit) decline();
}

/** `enterNesting(levels)`: declines where the conversion would report the nesting error. */
export function enter(s: FastState, levels = 1): void {
  const sh = s.shared;
  const depth = sh.depth + levels;
  if (depth > MAX_NESTING) decline();
  sh.depth = depth;
  if (depth > sh.peak) sh.peak = depth;
}

export function leave(s: FastState, levels = 1): void {
  s.shared.depth -= levels;
}

/**
 * Postfix chains and prefix runs enter their levels before converting what they hold, but
 * the parser learns how many only after reading it: the insides are read at the current
 * depth, and `deferEnd` shifts the peak they reached by the levels found.
 */
export function deferBegin(s: FastState): number {
  const outer = s.shared.peak;
  s.shared.peak = s.shared.depth;
  return outer;
}

export function deferEnd(s: FastState, outerPeak: number, levels: number): void {
  const sh = s.shared;
  const total = sh.peak + levels;
  if (total > MAX_NESTING) decline();
  sh.peak = total > outerPeak ? total : outerPeak;
}

// ---------------------------------------------------------------- characters

export const isIdentStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
export const isIdentPart = (c: number): boolean => isIdentStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** `spaces`: blanks (every character up to U+0020) and comments; a `/*` never closed is not one. */
export function skip(s: FastState): void {
  const from = s.pos;
  if (from === s.skipFrom) {
    s.pos = s.skipTo;
    return;
  }
  const src = s.src;
  const n = src.length;
  let i = from;
  // Most tokens follow one space or none.
  const c = src.charCodeAt(i);
  if (c > 32 && c !== 47) return;
  for (;;) {
    while (i < n && src.charCodeAt(i) <= 32) i++;
    if (src.charCodeAt(i) !== 47) break;
    const next = src.charCodeAt(i + 1);
    if (next === 47) {
      const eol = src.indexOf("\n", i + 2);
      i = eol < 0 ? n : eol;
    } else if (next === 42) {
      const close = src.indexOf("*/", i + 2);
      if (close < 0) break;
      i = close + 2;
    } else break;
  }
  s.pos = i;
  s.skipFrom = from;
  s.skipTo = i;
}

/** `sameLine` (lexified, no skip before): blanks, then no newline and no `//`. */
export function sameLine(s: FastState): boolean {
  const src = s.src;
  let i = s.pos;
  while (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9) i++;
  const c = src.charCodeAt(i);
  if (c === 10 || c === 13 || (c === 47 && src.charCodeAt(i + 1) === 47)) return false;
  s.pos = i;
  return true;
}

/** `identName` at `at`: the offset after it, or -1. */
export function identEnd(src: string, at: number): number {
  if (!isIdentStart(src.charCodeAt(at))) return -1;
  let i = at + 1;
  while (isIdentPart(src.charCodeAt(i))) i++;
  return i;
}

/**
 * After a skip, the word an item opens with ("" when none), with pos left at its start:
 * the word picks which alternatives of `TopItem`, `Stmt` or a test block's item can match.
 */
export function leadingWord(s: FastState): string {
  skip(s);
  const end = identEnd(s.src, s.pos);
  return end < 0 ? "" : s.src.slice(s.pos, end);
}

/** A syntactic use of a lexical word rule (skip, then the word): its start, or -1 (pos kept). */
export function word(s: FastState): number {
  const save = s.pos;
  skip(s);
  const start = s.pos;
  const end = identEnd(s.src, start);
  if (end < 0) {
    s.pos = save;
    return -1;
  }
  s.pos = end;
  return start;
}

/** `ident` (a word that is not a keyword): its start, or -1. */
export function ident(s: FastState): number {
  const save = s.pos;
  const start = word(s);
  if (start >= 0 && !KEYWORDS.has(s.src.slice(start, s.pos))) return start;
  s.pos = save;
  return -1;
}

/** `kwX` = "x" ~identPart, after a skip: its start, or -1. */
export function keyword(s: FastState, kw: string): number {
  const save = s.pos;
  skip(s);
  const start = s.pos;
  if (s.src.startsWith(kw, start) && !isIdentPart(s.src.charCodeAt(start + kw.length))) {
    s.pos = start + kw.length;
    return start;
  }
  s.pos = save;
  return -1;
}

/** A terminal of a syntactic rule, after a skip: true and past it, or false with pos kept. */
export function lit(s: FastState, text: string): boolean {
  const save = s.pos;
  skip(s);
  if (s.src.startsWith(text, s.pos)) {
    s.pos += text.length;
    return true;
  }
  s.pos = save;
  return false;
}

/** A one-character terminal (the common case, without a substring compare). */
export function char(s: FastState, code: number): boolean {
  const save = s.pos;
  skip(s);
  if (s.src.charCodeAt(s.pos) === code) {
    s.pos++;
    return true;
  }
  s.pos = save;
  return false;
}

/** `number` at `at` (no skip): the offset after it, or -1. */
export function numberEnd(src: string, at: number): number {
  let i = at;
  if (src.charCodeAt(i) === 45) i++;
  if (!isDigit(src.charCodeAt(i))) return -1;
  while (isDigit(src.charCodeAt(i))) i++;
  if (src.charCodeAt(i) === 46 && isDigit(src.charCodeAt(i + 1))) {
    i += 2;
    while (isDigit(src.charCodeAt(i))) i++;
  }
  const e = src.charCodeAt(i);
  if (e === 101 || e === 69) {
    let j = i + 1;
    const sign = src.charCodeAt(j);
    if (sign === 43 || sign === 45) j++;
    if (isDigit(src.charCodeAt(j))) {
      while (isDigit(src.charCodeAt(j))) j++;
      i = j;
    }
  }
  return i;
}

// ---------------------------------------------------------------- strings

/** Characters that may follow `\` (`escChar`), and what they stand for. */
export const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", n: "\n", t: "\t", "{": "{", "}": "}" };

/**
 * `string` at `at` (a `"`): the offset after its closing quote, or -1 when it fails (a bad
 * escape, or no closing quote). A `{` opens an `interp` only when one closes; otherwise it is
 * a plain character. Outcomes are memoized per start, so `"{{{{…` is lexed in linear time.
 */
export const stringEnd = (s: FastState, at: number): number => memoized(s, at, scanString);

/** `interp` at `at` (a `{` inside a string): the offset after its `}`, or -1. */
export const interpEnd = (s: FastState, at: number): number => memoized(s, at, scanInterp);

function memoized(s: FastState, at: number, scan: (s: FastState, at: number) => number): number {
  const known = s.lexMemo.get(at);
  if (known !== undefined) return known - 1;
  recurse(s);
  const end = scan(s, at);
  unrecurse(s);
  s.lexMemo.set(at, end + 1);
  return end;
}

function scanString(s: FastState, at: number): number {
  const src = s.src;
  for (let i = at + 1; i < src.length; ) {
    const c = src.charCodeAt(i);
    if (c === 34) return i + 1;
    if (c === 92) {
      if (ESCAPES[src[i + 1]] === undefined) return -1;
      i += 2;
    } else if (c === 123) {
      const close = interpEnd(s, i);
      i = close >= 0 ? close : i + 1;
    } else i++;
  }
  return -1;
}

function scanInterp(s: FastState, at: number): number {
  const src = s.src;
  for (let i = at + 1; i < src.length; ) {
    const c = src.charCodeAt(i);
    if (c === 125) return i + 1;
    if (c === 34 || c === 123) {
      // A nested string or interpolation that fails fails this one: `}` is expected there.
      const close = c === 34 ? stringEnd(s, i) : interpEnd(s, i);
      if (close < 0) return -1;
      i = close;
    } else i++;
  }
  return -1;
}
