/**
 * Luma values at run time, and the three things every other part asks of them: how a value
 * reads as text (interpolation, `str`, `print`, `+` with a string), whether two values are
 * equal, and whether a value counts as true.
 *
 * Values are plain JSON-shaped data: `null`, booleans, numbers (an int is an integral
 * number), strings, arrays and plain objects. The interpreter never mutates a value once
 * built (Luma has no field or index assignment), so values are shared, never copied.
 * Data coming from tool handlers may hold `undefined` fields; they read as absent/null.
 *
 * Choices where the spec is silent (documented in docs/language/functions.md):
 * - Truthiness: `false`, `null`, `0` and `""` are false; everything else (including `[]`
 *   and `{}`) is true.
 * - Equality (`==`, `!=`) is deep and structural: arrays element by element, objects by
 *   their key sets (order ignored) and values; `1 == 1.0` is true; `null == null` is true.
 */

export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };
export type ObjectValue = { [key: string]: Value };

export const isObjectValue = (v: unknown): v is ObjectValue =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The Luma name of a value's type, as error messages say it. */
export function typeName(v: unknown): string {
  if (v === null || v === undefined) return "null";
  switch (typeof v) {
    case "string":
      return "string";
    case "boolean":
      return "bool";
    case "number":
      return Number.isInteger(v) ? "int" : "float";
    case "object":
      return Array.isArray(v) ? "array" : isHandle(v) ? "Thread" : "object";
    default:
      return typeof v;
  }
}

/** Compact JSON; `undefined` (a handler's absent value) reads as `null`. */
export function toJson(v: unknown): string {
  return JSON.stringify(v) ?? "null";
}

/** The text interpolation produces: strings verbatim, everything else as compact JSON. */
export function renderValue(v: unknown): string {
  return typeof v === "string" ? v : toJson(v);
}

export function isTruthy(v: Value): boolean {
  return !(v === false || v === null || v === undefined || v === 0 || v === "");
}

/** Deep structural equality. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // A thread (thread-values.ts) is a handle: equal only to itself.
  if (isHandle(a) || isHandle(b)) return false;
  if (a === undefined || a === null) return b === undefined || b === null;
  if (typeof a !== "object" || typeof b !== "object" || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(ao)) {
    if (ao[key] === undefined) continue;
    count++;
    if (!Object.hasOwn(bo, key) || !valuesEqual(ao[key], bo[key])) return false;
  }
  for (const key of Object.keys(bo)) if (bo[key] !== undefined) count--;
  return count === 0;
}

const isHandle = (v: unknown): boolean => typeof v === "object" && v !== null && Symbol.for("luma.thread") in v;

/** Set a key on a fresh object; `__proto__` becomes an ordinary own field, never the prototype. */
export function setField(obj: ObjectValue, key: string, value: Value): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
