/**
 * What the builtins share to check their arguments: one wording for "expects X, got Y",
 * and readers that return the argument narrowed or fail with that wording. The static
 * checker's table (`check/types/builtin-signatures.ts`) mirrors these checks.
 */
import type { Span } from "../../syntax/ast";
import { errorAt } from "./runtime-errors";
import type { Runtime } from "./runtime-context";
import { renderValue, toJson, typeName, type Value } from "./values";

export function wrongType(rt: Runtime, name: string, v: Value, expected: string, span: Span): never {
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `${name}() expects ${expected}, got ${typeName(v)}`, span);
}

/** A failure that names the offending value (as JSON, cut short): `int() cannot parse "abc" as an int`. */
export function badValue(rt: Runtime, message: string, span: Span): never {
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", message, span);
}

/** A value as a message quotes it: JSON, at most 60 characters. */
export function quoted(v: Value): string {
  const text = toJson(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function stringArg(rt: Runtime, name: string, v: Value, span: Span): string {
  return typeof v === "string" ? v : wrongType(rt, name, v, "a string", span);
}

export function numberArg(rt: Runtime, name: string, v: Value, span: Span): number {
  return typeof v === "number" ? v : wrongType(rt, name, v, "a number", span);
}

export function intArg(rt: Runtime, name: string, v: Value, span: Span, what = "an int"): number {
  return typeof v === "number" && Number.isInteger(v) ? v : wrongType(rt, name, v, what, span);
}

export function arrayArg(rt: Runtime, name: string, v: Value, span: Span): Value[] {
  return Array.isArray(v) ? v : wrongType(rt, name, v, "an array", span);
}

/** How `join` and `str` write an item: strings raw, the rest as interpolation renders it. */
export const textOf = renderValue;
