/**
 * Types, fields, annotations and constant values for the fast parser (grammar.ohm § types,
 * `Field`, `Annotation`, `ConstValue`, `literal`): the nodes `to-ast-types.ts` builds.
 *
 * These hold data, not code: nothing here counts toward the nesting limit (the Ohm path
 * counts none of it either), but nested constant lists and objects still recurse, so they
 * are bounded by the shared recursion count.
 */
import type { Annotation, ConstValue, Field, PrimName, TypeRef } from "../ast";
import { entryKey, parseListThen } from "./fast-expressions";
import { constString } from "./fast-strings";
import {
  type FastState, char, identEnd, numberEnd,  recurse, skip, span, unrecurse, word,
} from "./fast-scanner";
import { KEYWORDS } from "../keywords";

const PRIM_NAMES: ReadonlySet<string> = new Set(["string", "int", "float", "bool", "any"]);

/** `Type = TypeBase #arrayMark*`. */
export function parseType(s: FastState): TypeRef | undefined {
  const save = s.pos;
  skip(s);
  const start = s.pos;
  let type = typeBase(s, start);
  if (!type) {
    s.pos = save;
    return undefined;
  }
  // arrayMark = (" " | "\t")* "[" (" " | "\t")* "]", with no skip before it.
  const src = s.src;
  for (;;) {
    let i = s.pos;
    while (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9) i++;
    if (src.charCodeAt(i) !== 91) break;
    i++;
    while (src.charCodeAt(i) === 32 || src.charCodeAt(i) === 9) i++;
    if (src.charCodeAt(i) !== 93) break;
    s.pos = i + 1;
    type = { kind: "ArrayType", element: type, span: span(s, start, s.pos) };
  }
  return type;
}

/** `TypeBase = EnumType | primType | ident` (pos after the skip). */
function typeBase(s: FastState, start: number): TypeRef | undefined {
  const end = identEnd(s.src, start);
  if (end < 0) return undefined;
  const name = s.src.slice(start, end);
  if (name === "enum") {
    s.pos = end;
    const values = char(s, 91) ? parseListThen(s, stringValue, 93) : undefined;
    if (values) return { kind: "EnumType", values, span: span(s, start, s.pos) };
    s.pos = start;
    return undefined;
  }
  s.pos = end;
  if (PRIM_NAMES.has(name)) return { kind: "PrimType", name: name as PrimName, span: span(s, start, end) };
  if (!KEYWORDS.has(name)) return { kind: "NamedType", name, span: span(s, start, end) };
  s.pos = start;
  return undefined;
}

/** A `string` token in a constant position, after a skip. */
function stringValue(s: FastState): string | undefined {
  const save = s.pos;
  skip(s);
  const text = s.src.charCodeAt(s.pos) === 34 ? constString(s) : undefined;
  if (text === undefined) s.pos = save;
  return text;
}

// ---------------------------------------------------------------- fields

/** `Params = (Fields ","?)?` followed by `)`: the fields, or undefined. */
export const parseParamsThenClose = (s: FastState): Field[] | undefined => parseListThen(s, parseField, 41);

/** `Field = fieldName "?"? ":" Type Annotation*`. */
export function parseField(s: FastState): Field | undefined {
  const save = s.pos;
  const start = word(s);
  if (start < 0) return undefined;
  const nameEnd = s.pos;
  const optional = char(s, 63);
  const type = char(s, 58) ? parseType(s) : undefined;
  if (!type) {
    s.pos = save;
    return undefined;
  }
  const annotations: Annotation[] = [];
  for (let a = parseAnnotation(s); a; a = parseAnnotation(s)) annotations.push(a);
  return {
    kind: "Field",
    name: s.src.slice(start, nameEnd),
    optional,
    type,
    annotations,
    span: span(s, start, s.pos),
    nameSpan: span(s, start, nameEnd),
  };
}

/** `Annotation = annotationName AnnotationArgs?` (`annotationName = "@" identName`, no gap). */
function parseAnnotation(s: FastState): Annotation | undefined {
  const save = s.pos;
  skip(s);
  const start = s.pos;
  const end = s.src.charCodeAt(start) === 64 ? identEnd(s.src, start + 1) : -1;
  if (end < 0) {
    s.pos = save;
    return undefined;
  }
  s.pos = end;
  const afterName = s.pos;
  let args: Annotation["args"] = [];
  const list = char(s, 40) ? parseListThen(s, spannedConst, 41) : undefined;
  if (list) args = list;
  else s.pos = afterName;
  return { kind: "Annotation", name: s.src.slice(start + 1, end), args, span: span(s, start, s.pos) };
}

function spannedConst(s: FastState): { value: ConstValue; span: ReturnType<typeof span> } | undefined {
  const save = s.pos;
  skip(s);
  const start = s.pos;
  const value = parseConstValue(s);
  if (value === undefined) {
    s.pos = save;
    return undefined;
  }
  return { value, span: span(s, start, s.pos) };
}

// ---------------------------------------------------------------- constant values

/** `ConstValue = ConstList | ConstObject | literal`. */
export function parseConstValue(s: FastState): ConstValue | undefined {
  const save = s.pos;
  skip(s);
  const c = s.src.charCodeAt(s.pos);
  let value: ConstValue | undefined;
  if (c === 91 || c === 123) {
    recurse(s);
    s.pos++;
    if (c === 91) value = parseListThen(s, parseConstValue, 93);
    else {
      const entries = parseListThen(s, constEntry, 125);
      value = entries && Object.fromEntries(entries);
    }
    unrecurse(s);
  } else value = parseLiteral(s);
  if (value === undefined) s.pos = save;
  return value;
}

function constEntry(s: FastState): [string, ConstValue] | undefined {
  const save = s.pos;
  const key = entryKey(s);
  const value = key && char(s, 58) ? parseConstValue(s) : undefined;
  if (key && value !== undefined) return [key.text, value];
  s.pos = save;
  return undefined;
}

/** `literal = string | number | kwTrue | kwFalse | kwNull` (pos after the skip); undefined when none. */
export function parseLiteral(s: FastState): string | number | boolean | null | undefined {
  const src = s.src;
  const at = s.pos;
  const c = src.charCodeAt(at);
  if (c === 34) return constString(s);
  const numEnd = numberEnd(src, at);
  if (numEnd >= 0) {
    s.pos = numEnd;
    return Number(src.slice(at, numEnd));
  }
  // kwTrue | kwFalse | kwNull: the whole word, nothing more.
  const end = identEnd(src, at);
  const word = end - at === 4 || end - at === 5 ? src.slice(at, end) : "";
  if (word !== "true" && word !== "false" && word !== "null") return undefined;
  s.pos = end;
  return word === "null" ? null : word === "true";
}
