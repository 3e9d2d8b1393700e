/**
 * From written types (`TypeRef`s, schemas, tool parameters) to checker types, as the
 * runtime's validators see them:
 *  - a field with `?` is optional; a field with `@default` is filled in when missing, so
 *    it is optional for a value to fit but always present on a validated value;
 *  - a tagged union is the union of its members, each carrying its tag field as the
 *    member's name (the runtime writes it on input and requires it on output);
 *  - a name that is not a schema (reported by the unknown-types rule) is `unknown`.
 *
 * One table per program; every schema is built once, lazily, and shared, so recursive
 * schemas (reported elsewhere) terminate: the object is cached before its fields are filled.
 */
import type { Field, TypeRef } from "../../syntax/ast";
import { assertNever } from "../../syntax/assert-never";
import type { Symbols } from "../symbols";
import {
  ANY,
  BOOL,
  FLOAT,
  INT,
  NULL,
  STRING,
  UNKNOWN,
  BUILTIN_TYPES,
  arrayOf,
  join,
  type FieldType,
  type ObjectType,
  type Type,
} from "./type-model";

const PRIMS: Record<string, Type> = { string: STRING, int: INT, float: FLOAT, bool: BOOL, any: ANY };

export const hasDefault = (f: Field): boolean => f.annotations.some((a) => a.name === "default");

export interface TypeTable {
  ofRef(ref: TypeRef): Type;
  /** A schema or tagged union by name; `unknown` for anything else. */
  named(name: string): Type;
  /**
   * The object a tool/query/command's parameters make: its input, as validated. `key`
   * tells declarations apart (`tool x`, `query x`); `name` is how messages print it.
   */
  paramsObject(key: string, name: string, params: readonly Field[]): ObjectType;
  /** A declared parameter or field as a value reads it (`T | null` when it may be absent). */
  ofField(f: Field): Type;
}

export function createTypeTable(symbols: Symbols): TypeTable {
  const named = new Map<string, Type>();
  const refs = new WeakMap<TypeRef, Type>();
  const inputs = new Map<string, ObjectType>();

  function fieldsOf(fields: readonly Field[], into: Map<string, FieldType>): void {
    for (const f of fields) {
      const defaulted = hasDefault(f);
      if (!into.has(f.name)) into.set(f.name, { type: ofRef(f.type), optional: f.optional || defaulted, defaulted });
    }
  }

  function schemaObject(name: string, tag?: { field: string; union: string; size: number }): ObjectType | undefined {
    const decl = symbols.schemas.get(name);
    if (!decl) return undefined;
    const fields = new Map<string, FieldType>();
    const obj: ObjectType = tag
      ? { kind: "object", name, fields, tag: tag.field, memberOf: { union: tag.union, size: tag.size } }
      : { kind: "object", name, fields };
    if (!tag) named.set(name, obj);
    if (tag) fields.set(tag.field, { type: { kind: "string", values: [name] }, optional: false });
    fieldsOf(decl.fields, fields);
    return obj;
  }

  function namedType(name: string): Type {
    const cached = named.get(name);
    if (cached) return cached;
    if (symbols.schemas.has(name)) return schemaObject(name)!;
    const union = symbols.unions.get(name);
    if (!union) return BUILTIN_TYPES.get(name) ?? UNKNOWN;
    const t: { kind: "union"; members: Type[]; name: string } = { kind: "union", members: [], name };
    named.set(name, t);
    for (const m of union.members) {
      // A member that is not a plain schema is reported by the union rule; it tells nothing here.
      const member = schemaObject(m.name, { field: union.tag, union: name, size: union.members.length });
      if (!member) {
        named.set(name, UNKNOWN);
        return UNKNOWN;
      }
      t.members.push(member);
    }
    return t.members.length === 0 ? UNKNOWN : t;
  }

  function ofRef(ref: TypeRef): Type {
    const cached = refs.get(ref);
    if (cached) return cached;
    let t: Type;
    switch (ref.kind) {
      case "PrimType":
        t = PRIMS[ref.name] ?? UNKNOWN;
        break;
      case "EnumType":
        t = { kind: "string", values: ref.values };
        break;
      case "ArrayType":
        t = arrayOf(ofRef(ref.element));
        break;
      case "NamedType":
        t = namedType(ref.name);
        break;
      default:
        return assertNever(ref);
    }
    refs.set(ref, t);
    return t;
  }

  return {
    ofRef,
    named: namedType,
    paramsObject(key, name, params) {
      let obj = inputs.get(key);
      if (!obj) {
        const fields = new Map<string, FieldType>();
        fieldsOf(params, fields);
        obj = { kind: "object", name, fields };
        inputs.set(key, obj);
      }
      return obj;
    },
    ofField(f) {
      const t = ofRef(f.type);
      return f.optional && !hasDefault(f) ? join(t, NULL) : t;
    },
  };
}
