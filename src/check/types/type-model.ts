/**
 * The static type algebra: what the checker believes a value can be.
 *
 * Types are plain immutable data, built once and shared. Objects are structural and
 * closed (a schema rejects unknown properties at run time, and an object literal has
 * exactly the keys it writes); a schema value is an object type carrying the schema's
 * name for messages. A tagged union is a union of its members, each with its tag field.
 *
 * Two types stand for "no claim": `any` (the program said so: accepted anywhere, reads
 * as `any`) and `unknown` (the checker cannot tell; treated exactly like `any`, but
 * printed as `unknown` so a hover says the truth). `never` is the element of `[]`.
 * Every rule errs on the side of silence: a member that is `any`/`unknown` makes a
 * union acceptable wherever one of its members could be.
 */

export interface FieldType {
  /** The field's type when present (without the `null` an absent optional field reads as). */
  type: Type;
  /** May be absent: not required by a schema, so it reads as `type | null`. */
  optional: boolean;
  /** Filled in by validation when missing (`@default`): optional to fit, yet always there to read. */
  defaulted?: boolean;
}

export type Type =
  | { kind: "any" }
  | { kind: "unknown" }
  | { kind: "never" }
  | { kind: "null" }
  | { kind: "bool" }
  | { kind: "int" }
  | { kind: "float" }
  /** `values`: the only strings it can be (an enum, or a literal); absent: any string. */
  | { kind: "string"; values?: readonly string[] }
  | { kind: "array"; element: Type }
  | {
      kind: "object";
      /** The schema (or tagged-union member) it is a value of; absent for object literals. */
      name?: string;
      fields: ReadonlyMap<string, FieldType>;
      /** The tag field of a tagged-union member: written by the runtime on input, so never required. */
      tag?: string;
      /** Any object at all (builtins' `keys(obj)`): fields unknown, every object fits. */
      open?: boolean;
      /** A tagged-union member: the union's name and member count (so `Doc | null` prints as such). */
      memberOf?: { union: string; size: number };
      /** A built-in handle (`Thread`): no object fits it but another of the same name, and it fits no other object. */
      handle?: true;
    }
  | { kind: "union"; members: readonly Type[]; name?: string };

export type ObjectType = Extract<Type, { kind: "object" }>;

export const ANY: Type = { kind: "any" };
export const UNKNOWN: Type = { kind: "unknown" };
export const NEVER: Type = { kind: "never" };
export const NULL: Type = { kind: "null" };
export const BOOL: Type = { kind: "bool" };
export const INT: Type = { kind: "int" };
export const FLOAT: Type = { kind: "float" };
export const STRING: Type = { kind: "string" };
export const ANY_OBJECT: Type = { kind: "object", fields: new Map(), open: true };
export const STRING_ARRAY: Type = { kind: "array", element: STRING };

export const arrayOf = (element: Type): Type => ({ kind: "array", element });

/**
 * The built-in types of conversations (issue #26 §1): `Message`, one message of a thread, and
 * `Thread`, the handle `thread()` returns — whose only field is its read-only `messages`.
 * A program's own schema of the same name takes precedence (type-of-schema.ts).
 */
const optionalField = (type: Type) => ({ type, optional: true });
const requiredField = (type: Type) => ({ type, optional: false });
export const MESSAGE: Type = {
  kind: "object",
  name: "Message",
  fields: new Map([
    ["role", requiredField({ kind: "string", values: ["user", "assistant", "tool"] })],
    ["text", requiredField(STRING)],
    [
      "tool_calls",
      optionalField(arrayOf({ kind: "object", fields: new Map([["id", requiredField(STRING)], ["name", requiredField(STRING)], ["args", requiredField(ANY)]]) })),
    ],
    ["tool_call_id", optionalField(STRING)],
    ["agent", optionalField(STRING)],
    ["time", requiredField(STRING)],
  ]),
};
export const THREAD: Type = { kind: "object", name: "Thread", handle: true, fields: new Map([["messages", requiredField(arrayOf(MESSAGE))]]) };
/** Type names the language defines: `Thread`, `Message`. */
export const BUILTIN_TYPES: ReadonlyMap<string, Type> = new Map([["Thread", THREAD], ["Message", MESSAGE]]);
export const literalString = (value: string): Type => ({ kind: "string", values: [value] });

/** `any` or `unknown`: the checker makes no claim. */
export const isOpen = (t: Type): boolean => t.kind === "any" || t.kind === "unknown";

/** The members of a type (itself, unless a union). */
export const membersOf = (t: Type): readonly Type[] => (t.kind === "union" ? t.members : [t]);

/** More distinct strings than this and a union of literals widens to `string`. */
const MAX_LITERALS = 16;
/** A union wider than this tells nobody anything: it widens to `unknown`. */
const MAX_MEMBERS = 12;

/** Structural equality, shallow enough to stay cheap (deep objects compare by reference). */
export function sameType(a: Type, b: Type, depth = 0): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || depth > 4) return false;
  switch (a.kind) {
    case "string": {
      const bv = (b as typeof a).values;
      if (!a.values || !bv) return !a.values && !bv;
      return a.values.length === bv.length && a.values.every((v, i) => v === bv[i]);
    }
    case "array":
      return sameType(a.element, (b as typeof a).element, depth + 1);
    case "object": {
      const o = b as ObjectType;
      if (a.name !== o.name || a.open !== o.open || a.tag !== o.tag || a.fields.size !== o.fields.size) return false;
      for (const [k, f] of a.fields) {
        const g = o.fields.get(k);
        if (!g || g.optional !== f.optional || !sameType(f.type, g.type, depth + 1)) return false;
      }
      return true;
    }
    case "union":
      return a.members.length === (b as typeof a).members.length && a.members.every((m, i) => sameType(m, (b as typeof a).members[i], depth + 1));
    default:
      return true;
  }
}

/** The union of two types, simplified: `int | float` is `float`, literals merge, `any` absorbs. */
export function join(a: Type, b: Type): Type {
  if (a === b || b.kind === "never") return a;
  if (a.kind === "never") return b;
  if (a.kind === "any" || b.kind === "any") return ANY;
  if (a.kind === "unknown" || b.kind === "unknown") return UNKNOWN;
  // Two equal plain types (most joins where branches meet): what the merge below returns, without its arrays.
  if (a.kind !== "union" && b.kind !== "union" && sameType(a, b)) return a;
  let members = membersOf(a).slice();
  for (const m of membersOf(b)) members = addMember(members, m);
  if (members.length > MAX_MEMBERS) return UNKNOWN;
  return members.length === 1 ? members[0] : { kind: "union", members };
}

export const joinAll = (types: readonly Type[]): Type => types.reduce(join, NEVER);

function addMember(members: Type[], m: Type): Type[] {
  for (let i = 0; i < members.length; i++) {
    const x = members[i];
    if (sameType(x, m)) return members;
    // A number is a float; a known string set merges, and any string absorbs it.
    if ((x.kind === "int" || x.kind === "float") && (m.kind === "int" || m.kind === "float")) {
      members[i] = x.kind === "float" ? x : m;
      return members;
    }
    if (x.kind === "string" && m.kind === "string") {
      members[i] = mergeStrings(x, m);
      return members;
    }
    const merged = x.kind === "object" && m.kind === "object" ? mergeLiterals(x, m) : undefined;
    if (merged) {
      members[i] = merged;
      return members;
    }
  }
  members.push(m);
  return members;
}

/**
 * Two object literals with the same keys (`{ name: "a" }`, `{ name: "b" }`) read as one
 * object whose fields join: exact for every field read, and fitting stays a "never" test.
 */
function mergeLiterals(a: ObjectType, b: ObjectType): Type | undefined {
  if (a.name || b.name || a.open || b.open || a.fields.size !== b.fields.size) return undefined;
  const fields = new Map<string, FieldType>();
  for (const [k, f] of a.fields) {
    const g = b.fields.get(k);
    if (!g || g.optional !== f.optional) return undefined;
    fields.set(k, { type: join(f.type, g.type), optional: f.optional });
  }
  return { kind: "object", fields };
}

function mergeStrings(a: Extract<Type, { kind: "string" }>, b: Extract<Type, { kind: "string" }>): Type {
  if (!a.values || !b.values) return STRING;
  const values = [...new Set([...a.values, ...b.values])];
  return values.length > MAX_LITERALS ? STRING : { kind: "string", values };
}

/** What reading a field gives: its type, `| null` when it may be absent (defaults are filled in). */
export const fieldReadType = (f: FieldType): Type => (f.optional && !f.defaulted ? join(f.type, NULL) : f.type);

/** The type without `null` (what `if x != null` leaves). */
export function withoutNull(t: Type): Type {
  if (t.kind === "null") return NEVER;
  if (t.kind !== "union") return t;
  const rest = t.members.filter((m) => m.kind !== "null");
  if (rest.length === t.members.length) return t;
  return rest.length === 1 ? rest[0] : { kind: "union", members: rest, name: t.name };
}

export const canBeNull = (t: Type): boolean => membersOf(t).some((m) => m.kind === "null");

/** Keep the members a predicate accepts (narrowing a tagged union by its tag). */
export function filterMembers(t: Type, keep: (m: Type) => boolean): Type {
  const rest = membersOf(t).filter(keep);
  if (rest.length === 0) return NEVER;
  return rest.length === 1 ? rest[0] : { kind: "union", members: rest, name: t.kind === "union" ? t.name : undefined };
}

/**
 * A value's type in a message: a lone string literal reads as `string` (`'"seven"'` says
 * less) — unless the target is an enum, where the literal is the point.
 */
export const valueText = (t: Type, target?: Type): string =>
  t.kind === "string" && t.values?.length === 1 && !(target?.kind === "string" && target.values) ? "string" : typeText(t);

/** Members joined by `|`; all members of one tagged union print as its name. */
function unionText(members: readonly Type[], depth: number): string {
  const count = new Map<string, number>();
  for (const m of members) if (m.kind === "object" && m.memberOf) count.set(m.memberOf.union, (count.get(m.memberOf.union) ?? 0) + 1);
  const parts: string[] = [];
  const printed = new Set<string>();
  for (const m of members) {
    const of = m.kind === "object" ? m.memberOf : undefined;
    if (of && count.get(of.union) === of.size) {
      if (!printed.has(of.union)) parts.push(of.union);
      printed.add(of.union);
    } else parts.push(typeText(m, depth + 1));
  }
  return parts.join(" | ");
}

/** The type as messages and hovers print it: `int`, `User`, `string[] | null`, `{ a: int }`. */
export function typeText(t: Type, depth = 0): string {
  switch (t.kind) {
    case "string":
      if (!t.values) return "string";
      return t.values.length === 1 ? JSON.stringify(t.values[0]) : `enum[${t.values.map((v) => JSON.stringify(v)).join(", ")}]`;
    case "array": {
      const inner = typeText(t.element, depth + 1);
      return t.element.kind === "union" && !t.element.name ? `(${inner})[]` : `${inner}[]`;
    }
    case "object":
      if (t.name) return t.name;
      if (t.open) return "object";
      if (depth > 2) return "{ … }";
      if (t.fields.size === 0) return "{}";
      return `{ ${[...t.fields].map(([k, f]) => `${k}${f.optional ? "?" : ""}: ${typeText(f.type, depth + 1)}`).join(", ")} }`;
    case "union":
      return t.name ?? unionText(t.members, depth);
    default:
      return t.kind;
  }
}
