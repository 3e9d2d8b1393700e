/**
 * The builtin functions (spec §7), one table: each builtin's name, arity and doc line.
 * The checker (arity, names), the runtime (its implementations, `runtime/interpreter/
 * builtins*.ts`, typed `Record<BuiltinName, …>`), the checker's types
 * (`check/types/builtin-signatures.ts`, likewise) and the editor's completion all read it:
 * a builtin is one row here plus its implementation and its signature, and a row without
 * either does not compile.
 */

export interface Arity {
  min: number;
  /** Infinity for variadic builtins. */
  max: number;
}

export interface BuiltinSpec extends Arity {
  /** One line: what the call returns; completion and hover show it. */
  doc: string;
}

const spec = (min: number, max: number, doc: string): BuiltinSpec => ({ min, max, doc });

export const BUILTINS = {
  print: spec(0, Infinity, "Prints its values on one line: strings raw, others as compact JSON, joined by a space."),
  len: spec(1, 1, "Characters of a string, items of an array, keys of an object."),
  str: spec(1, 1, "The text interpolation would produce."),
  json: spec(1, 1, "Compact JSON text of a value."),
  keys: spec(1, 1, "An object's keys, in insertion order."),
  now: spec(0, 0, "The current time, ISO-8601 (2025-01-31T12:00:00.000Z)."),
  int: spec(1, 1, "A string of decimal digits or a number, as an int (truncated toward zero)."),
  float: spec(1, 1, "A decimal or exponent string, or a number, as a float."),
  bool: spec(1, 1, 'A bool from "true" / "false" (any case) or a bool.'),
  round: spec(1, 2, "Rounded half away from zero, to `digits` decimals (0–15, default 0)."),
  fixed: spec(2, 2, 'The text of a number with exactly `digits` decimals: fixed(0.1 + 0.2, 2) is "0.30".'),
  range: spec(1, 2, "range(n): 0 … n-1; range(a, b): a … b-1 (at most 10,000,000 items)."),
  sum: spec(1, Infinity, "The sum of an array of numbers or of its number arguments."),
  min: spec(1, Infinity, "The least of an array of numbers or of its number arguments."),
  max: spec(1, Infinity, "The greatest of an array of numbers or of its number arguments."),
  exit: spec(0, 1, "Ends the run with status `code` (0–255, default 0)."),
  split: spec(2, 2, "A string split at every occurrence of a separator."),
  join: spec(2, 2, "An array's items joined by a separator."),
  trim: spec(1, 1, "A string without its leading and trailing blanks."),
  lower: spec(1, 1, "A string in lower case."),
  upper: spec(1, 1, "A string in upper case."),
  contains: spec(2, 2, "Whether a string holds a substring, or an array an item."),
  starts_with: spec(2, 2, "Whether a string starts with a prefix."),
  ends_with: spec(2, 2, "Whether a string ends with a suffix."),
  replace: spec(3, 3, "A string with every occurrence of one text replaced by another."),
  slice: spec(2, 3, "Part of a string or an array: from `start` up to `end` (exclusive)."),
  thread: spec(0, 1, "thread(): a new in-memory conversation; thread(id): the stored one of the \"threads\" store."),
  calls: spec(1, 1, "How many times a tool's handler ran in this run (in `luma test`, in this test)."),
} as const satisfies Record<string, BuiltinSpec>;

export type BuiltinName = keyof typeof BUILTINS;

export const isBuiltin = (name: string): name is BuiltinName => Object.hasOwn(BUILTINS, name);

/** "2", "1 to 2", "at least 1" — the expected count in an arity message. */
export function arityText({ min, max }: Arity): string {
  if (max === Infinity) return `at least ${min}`;
  return min === max ? String(min) : `${min} to ${max}`;
}
