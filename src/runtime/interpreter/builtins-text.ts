/**
 * The string builtins (spec §7). Strings are UTF-16 code units, as `len` counts them.
 *
 * - `split(s, sep)`: the pieces between each `sep` (an empty `sep` splits into characters);
 *   `join(xs, sep)`: the items (strings raw, other values as `str` writes them) with `sep`.
 * - `trim(s)`, `lower(s)`, `upper(s)`: whitespace trimmed at both ends; case mapped.
 * - `contains(s, part)`: `part` occurs in `s`; on an array, an item equals `part` (`==`).
 * - `starts_with(s, prefix)`, `ends_with(s, suffix)`.
 * - `replace(s, old, new)`: every occurrence of `old` (an empty `old` is an error).
 * - `slice(v, start, end?)`: the part of a string or an array from `start` up to (not
 *   including) `end`, default the end; a negative index counts from the end, as in
 *   JavaScript and Python. Out-of-range indices are clamped, never an error.
 */
import type { BuiltinImpl, BuiltinTable } from "./builtins";
import { arrayArg, intArg, stringArg, textOf, wrongType } from "./builtin-args";
import { errorAt } from "./runtime-errors";
import { valuesEqual } from "./values";

const stringOp = (name: string, op: (s: string) => string): BuiltinImpl => ({
  run: ([s], rt, span) => op(stringArg(rt, name, s, span)),
});

const stringTest = (name: string, test: (s: string, part: string) => boolean): BuiltinImpl => ({
  run: ([s, part], rt, span) => test(stringArg(rt, name, s, span), stringArg(rt, name, part, span)),
});

export const TEXT_BUILTINS = {
  split: {
    run: ([s, sep], rt, span) => stringArg(rt, "split", s, span).split(stringArg(rt, "split", sep, span)),
  },
  join: {
    run: ([xs, sep], rt, span) => arrayArg(rt, "join", xs, span).map(textOf).join(stringArg(rt, "join", sep, span)),
  },
  trim: stringOp("trim", (s) => s.trim()),
  lower: stringOp("lower", (s) => s.toLowerCase()),
  upper: stringOp("upper", (s) => s.toUpperCase()),
  contains: {
    run([v, part], rt, span) {
      if (Array.isArray(v)) return v.some((item) => valuesEqual(item, part));
      if (typeof v === "string") return v.includes(stringArg(rt, "contains", part, span));
      return wrongType(rt, "contains", v, "a string or an array", span);
    },
  },
  starts_with: stringTest("starts_with", (s, prefix) => s.startsWith(prefix)),
  ends_with: stringTest("ends_with", (s, suffix) => s.endsWith(suffix)),
  replace: {
    run([s, from, to], rt, span) {
      const old = stringArg(rt, "replace", from, span);
      if (old === "") throw errorAt(rt.sourceOf, "RUNTIME_ERROR", "replace() cannot replace the empty string", span);
      const text = stringArg(rt, "replace", to, span);
      // A function replacer: `$&` or `$1` in the new text is literal, not a JS pattern.
      return stringArg(rt, "replace", s, span).replaceAll(old, () => text);
    },
  },
  slice: {
    run([v, start, end], rt, span) {
      const from = intArg(rt, "slice", start, span);
      const to = end === undefined ? undefined : intArg(rt, "slice", end, span);
      if (typeof v === "string" || Array.isArray(v)) return v.slice(from, to);
      return wrongType(rt, "slice", v, "a string or an array", span);
    },
  },
} satisfies BuiltinTable;
