/**
 * The list and object builtins without a lambda (issue #28 §2); those with one
 * (`map`, `filter`, …) are in builtins-lambdas.ts. None changes its argument: each
 * returns a new array.
 *
 * - `sort(xs)`: numbers ascending, or strings by UTF-16 code units (as `<` compares them);
 *   a list mixing kinds, or holding anything else, is a RUNTIME_ERROR. Stable.
 * - `reverse(xs)`: the items last to first. `unique(xs)`: the first occurrence of each
 *   item, in order (items equal by `==`, so `{a: 1}` and `{a: 1}` are one).
 * - `values(obj)`: an object's values in key order; `entries(obj)`: `{ key, value }`
 *   objects in key order.
 * - `index_of(xs, v)`: the index of the first item `== v`, -1 when there is none; on a
 *   string, where the substring `v` starts.
 */
import type { Span } from "../../syntax/ast";
import type { BuiltinTable } from "./builtins";
import { arrayArg, badValue, quoted, stringArg, wrongType } from "./builtin-args";
import type { Runtime } from "./runtime-context";
import { isObjectValue, typeName, valuesEqual, type Value } from "./values";

/** How `sort` and `sort_by` order keys: all numbers or all strings, else an error naming the odd one. */
export function sortableKeys(rt: Runtime, name: string, keys: readonly Value[], span: Span): "number" | "string" {
  const kind = typeof keys[0] === "string" ? "string" : "number";
  for (let i = 0; i < keys.length; i++) {
    if (typeof keys[i] !== kind) {
      return badValue(rt, `${name}() sorts numbers or strings, not both or others: item ${i + 1} is ${typeName(keys[i])} ${quoted(keys[i])}`, span);
    }
  }
  return kind;
}

/** Indices of `keys` in ascending key order (stable). */
export function sortedOrder(rt: Runtime, name: string, keys: readonly Value[], span: Span): number[] {
  const kind = sortableKeys(rt, name, keys, span);
  const order = keys.map((_, i) => i);
  if (kind === "number") order.sort((a, b) => (keys[a] as number) - (keys[b] as number));
  else order.sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : (keys[a] as string) > (keys[b] as string) ? 1 : 0));
  return order;
}

/** The first occurrence of each item, in order: by identity for primitives, `==` for the rest. */
function uniqueItems(items: readonly Value[]): Value[] {
  const seen = new Set<Value>();
  const out: Value[] = [];
  for (const item of items) {
    if (item !== null && typeof item === "object") {
      if (out.some((kept) => valuesEqual(kept, item))) continue;
    } else {
      if (seen.has(item)) continue;
      seen.add(item);
    }
    out.push(item);
  }
  return out;
}

export const LIST_BUILTINS = {
  sort: {
    run([xs], rt, span) {
      const items = arrayArg(rt, "sort", xs, span);
      return sortedOrder(rt, "sort", items, span).map((i) => items[i]);
    },
  },
  reverse: { run: ([xs], rt, span) => [...arrayArg(rt, "reverse", xs, span)].reverse() },
  unique: { run: ([xs], rt, span) => uniqueItems(arrayArg(rt, "unique", xs, span)) },
  values: {
    run: ([obj], rt, span) => (isObjectValue(obj) ? Object.values(obj) : wrongType(rt, "values", obj, "an object", span)),
  },
  entries: {
    run: ([obj], rt, span) =>
      isObjectValue(obj) ? Object.entries(obj).map(([key, value]) => ({ key, value })) : wrongType(rt, "entries", obj, "an object", span),
  },
  index_of: {
    run([xs, v], rt, span) {
      if (typeof xs === "string") return xs.indexOf(stringArg(rt, "index_of", v, span));
      if (Array.isArray(xs)) return xs.findIndex((item) => valuesEqual(item, v));
      return wrongType(rt, "index_of", xs, "an array or a string", span);
    },
  },
} satisfies BuiltinTable;
