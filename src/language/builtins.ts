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
  /** Its second argument is a lambda `(x) => e` applied to the items of its first (`map`, `filter`, …). */
  lambda?: true;
  /** It waits (`sleep`): the interpreter runs it asynchronously, so Ctrl-C and deadlines end it. */
  suspends?: true;
}

const spec = (min: number, max: number, doc: string): BuiltinSpec => ({ min, max, doc });
/** A builtin of a list and a lambda over its items: `name(xs, (x) => e)`. */
const withLambda = (doc: string): BuiltinSpec => ({ min: 2, max: 2, doc, lambda: true });

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
  // issue #28 §2, the standard library
  json_parse: spec(1, 1, "The value a JSON text holds; a text that is not JSON is an error naming its line and column."),
  env: spec(1, 1, "An environment variable's value, or null when it is not set."),
  now_ms: spec(0, 0, "The current time in milliseconds since 1970-01-01T00:00:00Z."),
  parse_time: spec(1, 1, "An ISO-8601 time (2025-01-31T12:00:00Z) as milliseconds since the epoch; UTC without a zone."),
  format_time: spec(1, 2, "A time in ms as text, in UTC: ISO-8601 with milliseconds, or by a pattern (YYYY-MM-DD HH:mm:ss.SSS)."),
  abs: spec(1, 1, "The absolute value of a number, of the same type."),
  floor: spec(1, 1, "The greatest int not above a number."),
  ceil: spec(1, 1, "The least int not below a number."),
  random: spec(0, 0, "A random float from 0 (included) to 1 (excluded)."),
  random_int: spec(2, 2, "A random int from `low` to `high`, both included."),
  uuid: spec(0, 0, "A random (version 4) UUID."),
  sort: spec(1, 1, "A list of numbers, or of strings, in ascending order."),
  reverse: spec(1, 1, "A list's items, last to first."),
  unique: spec(1, 1, "A list's items without repeats (==), first occurrences in order."),
  values: spec(1, 1, "An object's values, in key order."),
  entries: spec(1, 1, "An object's fields as { key, value } objects, in key order."),
  index_of: spec(2, 2, "The index of the first item == v (or of a substring), -1 when absent."),
  map: withLambda("A list of the lambda's value for each item: map(xs, (x) => x.id)."),
  filter: withLambda("The items for which the lambda is true: filter(xs, (x) => x.total > 10)."),
  find: withLambda("The first item for which the lambda is true, or null."),
  any: withLambda("Whether the lambda is true for some item (false for an empty list)."),
  all: withLambda("Whether the lambda is true for every item (true for an empty list)."),
  sort_by: withLambda("The items ordered by the lambda's value (numbers or strings), ascending, stable."),
  group_by: withLambda("An object from each of the lambda's values (as text) to the items that gave it, in order."),
  regex_match: spec(2, 2, "The first match of a pattern as [whole, group1, …], or null."),
  regex_find_all: spec(2, 2, "Every match of a pattern, as text."),
  regex_replace: spec(3, 3, "Every match of a pattern replaced; $1 in the new text is a group."),
  pad_start: spec(2, 3, "A string filled at its start to `width` characters (with spaces by default)."),
  pad_end: spec(2, 3, "A string filled at its end to `width` characters (with spaces by default)."),
  read_line: spec(0, 0, "The next line of stdin without its line ending; null at the end of input."),
  read_all: spec(0, 0, "The rest of stdin as one string."),
  sleep: { ...spec(1, 1, "Waits `ms` milliseconds (at most 24 hours); Ctrl-C and a test's deadline end the wait."), suspends: true },
  calls: spec(1, 1, "How many times a tool's handler ran in this run (in `luma test`, in this test)."),
} as const satisfies Record<string, BuiltinSpec>;

export type BuiltinName = keyof typeof BUILTINS;

export const isBuiltin = (name: string): name is BuiltinName => Object.hasOwn(BUILTINS, name);

/** Whether the builtin `name` takes a lambda as its second argument. */
export const takesLambda = (name: string): boolean => isBuiltin(name) && (BUILTINS[name] as BuiltinSpec).lambda === true;

/** "2", "1 to 2", "at least 1" — the expected count in an arity message. */
export function arityText({ min, max }: Arity): string {
  if (max === Infinity) return `at least ${min}`;
  return min === max ? String(min) : `${min} to ${max}`;
}
