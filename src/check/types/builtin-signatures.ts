/**
 * The builtins' types (spec §7), one table: what each argument may be and what the call
 * returns, one entry per builtin of `language/builtins.ts` (a builtin without one does not
 * compile). Arity is that table's (the calls rule reads it); this table only types.
 * `params` mirrors the runtime's own checks in `runtime/interpreter/builtins*.ts`, so a
 * call the checker rejects is one the runtime would fail with RUNTIME_ERROR.
 *
 * A return type may depend on the arguments' types: `slice` returns what it slices,
 * `sum`/`min`/`max` an int when every number is one, `round(x)` an int and
 * `round(x, digits)` a float.
 */
import {
  ANY,
  ANY_OBJECT,
  BOOL,
  FLOAT,
  INT,
  NULL,
  STRING,
  STRING_ARRAY,
  UNKNOWN,
  THREAD,
  arrayOf,
  fieldReadType,
  isOpen,
  join,
  joinAll,
  membersOf,
  type Type,
} from "./type-model";
import { isBuiltin, type BuiltinName } from "../../language/builtins";

export interface BuiltinParam {
  /** The type the argument must be able to have. */
  type: Type;
  /** How a message names what `type` allows. */
  text: string;
}

export interface BuiltinSignature {
  /** Each argument's type by position (the last repeats); absent: anything. */
  params?: readonly BuiltinParam[];
  returns: Type | ((args: readonly Type[]) => Type);
}

const union = (...members: Type[]): Type => ({ kind: "union", members });
const NUMBER = union(INT, FLOAT);
const ANY_ARRAY = arrayOf(ANY);

const P = {
  string: { type: STRING, text: "a string" },
  int: { type: INT, text: "an int" },
  number: { type: NUMBER, text: "a number" },
  array: { type: ANY_ARRAY, text: "an array" },
  any: { type: ANY, text: "any value" },
  object: { type: ANY_OBJECT, text: "an object" },
  lambda: { type: ANY, text: "a lambda (x) => …" },
  sized: { type: union(STRING, ANY_ARRAY, ANY_OBJECT, THREAD), text: "a string, an array or an object" },
  sliceable: { type: union(STRING, ANY_ARRAY), text: "a string or an array" },
  numbers: { type: union(INT, FLOAT, arrayOf(NUMBER)), text: "numbers or an array of numbers" },
  parsable: (other: Type, text: string): BuiltinParam => ({ type: union(STRING, other), text }),
} as const;

/** `sum`/`min`/`max`: an int when every number is an int (known), a float otherwise. */
function numbersResult(args: readonly Type[]): Type {
  let float = false;
  for (const arg of args) {
    for (const m of membersOf(arg)) {
      const elements = m.kind === "array" ? membersOf(m.element) : [m];
      for (const el of elements) {
        if (isOpen(el)) return UNKNOWN;
        if (el.kind === "float") float = true;
      }
    }
  }
  return float ? FLOAT : INT;
}

const sliced = (args: readonly Type[]): Type => {
  const t = args[0] ?? UNKNOWN;
  return membersOf(t).every((m) => m.kind === "string" || m.kind === "array") ? t : UNKNOWN;
};

/** The type of a list's items (unknown for what is not surely a list): a lambda's parameter. */
export function elementOf(list: Type): Type {
  const members = membersOf(list);
  return members.every((m) => m.kind === "array") ? joinAll(members.map((m) => (m as { element: Type }).element)) : UNKNOWN;
}

/** `abs`: an int stays an int, a float a float. */
function sameNumber(args: readonly Type[]): Type {
  const t = args[0] ?? UNKNOWN;
  return membersOf(t).every((m) => m.kind === "int" || m.kind === "float") ? t : UNKNOWN;
}

/** `sort`, `reverse`, `unique`: a list of the same items. */
const sameList = (args: readonly Type[]): Type => {
  const t = args[0] ?? UNKNOWN;
  return membersOf(t).every((m) => m.kind === "array") ? t : arrayOf(ANY);
};

/** The type an object's values have: the join of its fields' (read) types; any for an open object. */
function valueTypeOf(t: Type): Type {
  const fields: Type[] = [];
  for (const m of membersOf(t)) {
    if (m.kind !== "object" || m.open) return ANY;
    for (const f of m.fields.values()) fields.push(fieldReadType(f));
  }
  return fields.length ? joinAll(fields) : ANY;
}

const entryOf = (value: Type): Type => ({
  kind: "object",
  fields: new Map([
    ["key", { type: STRING, optional: false }],
    ["value", { type: value, optional: false }],
  ]),
});

const stringFn = (arity: number, returns: Type): BuiltinSignature => ({ params: Array(arity).fill(P.string), returns });

export const BUILTIN_SIGNATURES: Readonly<Record<BuiltinName, BuiltinSignature>> = {
  print: { returns: NULL },
  len: { params: [P.sized], returns: INT },
  thread: { params: [P.string], returns: THREAD },
  str: { returns: STRING },
  json: { returns: STRING },
  keys: { params: [P.object], returns: STRING_ARRAY },
  now: { returns: STRING },
  // conversions and numbers (runtime/interpreter/builtins-numbers.ts)
  int: { params: [P.parsable(NUMBER, "a string or a number")], returns: INT },
  float: { params: [P.parsable(NUMBER, "a string or a number")], returns: FLOAT },
  bool: { params: [P.parsable(BOOL, "a string or a bool")], returns: BOOL },
  round: { params: [P.number, P.int], returns: (args) => (args.length < 2 ? INT : FLOAT) },
  fixed: { params: [P.number, P.int], returns: STRING },
  range: { params: [P.int], returns: arrayOf(INT) },
  sum: { params: [P.numbers], returns: numbersResult },
  min: { params: [P.numbers], returns: numbersResult },
  max: { params: [P.numbers], returns: numbersResult },
  exit: { params: [P.int], returns: NULL },
  // strings (runtime/interpreter/builtins-text.ts)
  split: { params: [P.string, P.string], returns: STRING_ARRAY },
  join: { params: [P.array, P.string], returns: STRING },
  trim: stringFn(1, STRING),
  lower: stringFn(1, STRING),
  upper: stringFn(1, STRING),
  contains: { params: [P.sliceable, P.any], returns: BOOL },
  starts_with: stringFn(2, BOOL),
  ends_with: stringFn(2, BOOL),
  replace: stringFn(3, STRING),
  slice: { params: [P.sliceable, P.int], returns: sliced },
  // the standard library (issue #28 §2; runtime/interpreter/builtins-{system,time,lists,regex}.ts)
  json_parse: { params: [P.string], returns: ANY },
  env: { params: [P.string], returns: union(STRING, NULL) },
  now_ms: { returns: INT },
  parse_time: { params: [P.string], returns: INT },
  format_time: { params: [{ type: INT, text: "a time in ms (an int)" }, P.string], returns: STRING },
  abs: { params: [P.number], returns: sameNumber },
  floor: { params: [P.number], returns: INT },
  ceil: { params: [P.number], returns: INT },
  random: { returns: FLOAT },
  random_int: { params: [P.int, P.int], returns: INT },
  uuid: { returns: STRING },
  sort: { params: [P.array], returns: sameList },
  reverse: { params: [P.array], returns: sameList },
  unique: { params: [P.array], returns: sameList },
  values: { params: [P.object], returns: (args) => arrayOf(valueTypeOf(args[0] ?? UNKNOWN)) },
  entries: { params: [P.object], returns: (args) => arrayOf(entryOf(valueTypeOf(args[0] ?? UNKNOWN))) },
  index_of: { params: [P.sliceable, P.any], returns: INT },
  // with a lambda (runtime/interpreter/builtins-lambdas.ts): a lambda's type is its body's
  map: { params: [P.array, P.lambda], returns: (args) => arrayOf(args[1] ?? UNKNOWN) },
  filter: { params: [P.array, P.lambda], returns: sameList },
  find: { params: [P.array, P.lambda], returns: (args) => join(elementOf(args[0] ?? UNKNOWN), NULL) },
  any: { params: [P.array, P.lambda], returns: BOOL },
  all: { params: [P.array, P.lambda], returns: BOOL },
  sort_by: { params: [P.array, P.lambda], returns: sameList },
  // An object of lists of the items; its keys are data, so it reads as any object does.
  group_by: { params: [P.array, P.lambda], returns: ANY_OBJECT },
  regex_match: stringFn(2, union(STRING_ARRAY, NULL)),
  regex_find_all: stringFn(2, STRING_ARRAY),
  regex_replace: stringFn(3, STRING),
  pad_start: { params: [P.string, P.int, P.string], returns: STRING },
  pad_end: { params: [P.string, P.int, P.string], returns: STRING },
  read_line: { returns: union(STRING, NULL) },
  read_all: { returns: STRING },
  sleep: { params: [{ type: INT, text: "a time in ms (an int)" }], returns: NULL },
  // tests (luma test): how many times a tool's handler ran
  calls: { params: [{ type: STRING, text: "a tool name (a string)" }], returns: INT },
};

export const builtinSignature = (name: string): BuiltinSignature | undefined =>
  isBuiltin(name) ? BUILTIN_SIGNATURES[name] : undefined;

/** What a call of the builtin returns, given its arguments' types. */
export function builtinReturn(sig: BuiltinSignature, args: readonly Type[]): Type {
  return typeof sig.returns === "function" ? sig.returns(args) : sig.returns;
}
