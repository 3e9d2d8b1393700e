/**
 * String literals for the fast parser (grammar.ohm `string`, `strPart`, `interp`), decoded
 * as `string-literal.ts` decodes them: in a constant position escapes are decoded and braces
 * kept as written; in an expression a `Str` whose parts alternate text and `{expr}`. An
 * interpolation segment is parsed as the Ohm path does it — on its own text, as
 * `InterpExpr`, with its offset as the base of its spans, one nesting level deeper.
 */
import type { Expr, StrPart } from "../ast";
import { parseExpr } from "./fast-expressions";
import { ESCAPES, type FastState, decline, enter, interpEnd, leave, newState, skip, span, stringEnd } from "./fast-scanner";

/** A string in a constant position (pos at its `"`): escapes decoded, braces as written. */
export function constString(s: FastState): string | undefined {
  const at = s.pos;
  const end = stringEnd(s, at);
  if (end < 0) return undefined;
  const src = s.src;
  let text = "";
  let from = at + 1;
  for (let i = from; i < end - 1; ) {
    if (src.charCodeAt(i) === 92) {
      text += src.slice(from, i) + ESCAPES[src[i + 1]];
      i += 2;
      from = i;
    } else if (src.charCodeAt(i) === 123) {
      const close = interpEnd(s, i);
      i = close >= 0 ? close : i + 1;
    } else i++;
  }
  s.pos = end;
  return text + src.slice(from, end - 1);
}

/**
 * A string in an expression (pos at its `"`): a `Str` whose parts alternate text and
 * `{expr}`. A `{` that closes no segment is a diagnostic on the Ohm path (its text keeps
 * the brace): its offset is noted against the node (`Shared.loneBraces`), and `fastParse`
 * reports it if the node ends up in the program — matching a long string, Ohm spent
 * hundreds of bytes of memory per character.
 */
export function stringExpr(s: FastState): Expr | undefined {
  const at = s.pos;
  const end = stringEnd(s, at);
  if (end < 0) return undefined;
  const src = s.src;
  const parts: StrPart[] = [];
  let lone: number[] | undefined;
  let text = "";
  let from = at + 1;
  for (let i = from; i < end - 1; ) {
    const c = src.charCodeAt(i);
    if (c === 92) {
      text += src.slice(from, i) + ESCAPES[src[i + 1]];
      i += 2;
      from = i;
    } else if (c === 123) {
      const close = interpEnd(s, i);
      if (close < 0) {
        (lone ??= []).push(s.base + i);
        i++;
        continue;
      }
      text += src.slice(from, i);
      if (text) parts.push(text);
      text = "";
      enter(s);
      parts.push(segment(s, src.slice(i + 1, close - 1), s.base + i + 1));
      leave(s);
      i = from = close;
    } else i++;
  }
  text += src.slice(from, end - 1);
  if (text) parts.push(text);
  s.pos = end;
  const str: Expr = { kind: "Str", parts, span: span(s, at, end) };
  if (lone) (s.shared.loneBraces ??= new WeakMap()).set(str, lone);
  return str;
}

/** `InterpExpr = Expr` matched on the segment's own text: all of it, or declined. */
function segment(outer: FastState, text: string, offset: number): Expr {
  const s = newState(text, offset, outer.file, outer.shared);
  const expr = parseExpr(s);
  skip(s);
  if (!expr || s.pos !== text.length) decline();
  return expr;
}

/** A string literal that must hold no `{…}` (a test's name, a cassette's path): its text. */
export function plainString(s: FastState): { text: string; start: number; end: number } | undefined {
  const save = s.pos;
  skip(s);
  const start = s.pos;
  const str = s.src.charCodeAt(start) === 34 ? (stringExpr(s) as Extract<Expr, { kind: "Str" }> | undefined) : undefined;
  if (!str) {
    s.pos = save;
    return undefined;
  }
  // A `{…}` is reported by the Ohm path; so is a lone `{` (no node keeps it to report here).
  if (!str.parts.every((p) => typeof p === "string") || s.shared.loneBraces?.has(str)) decline();
  return { text: str.parts.join(""), start, end: s.pos };
}
