/**
 * Does a constant written in source (an `@default(...)` value) fit a type? Schemas are
 * checked structurally: known keys only, each value fitting its field, required fields
 * present. A union accepts an object that fits one of its members.
 */
import type { ConstValue, TypeRef } from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";
import type { Symbols } from "./symbols";

type Obj = { [key: string]: ConstValue };
const isObj = (v: ConstValue): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function constMatchesType(value: ConstValue, ref: TypeRef, symbols: Symbols, depth = 0): boolean {
  if (depth > 32) return true; // recursive schemas are reported elsewhere; do not loop here
  switch (ref.kind) {
    case "PrimType":
      switch (ref.name) {
        case "any":
          return true;
        case "string":
          return typeof value === "string";
        case "bool":
          return typeof value === "boolean";
        case "int":
          return typeof value === "number" && Number.isInteger(value);
        case "float":
          return typeof value === "number";
      }
      return false;
    case "EnumType":
      return typeof value === "string" && ref.values.includes(value);
    case "ArrayType":
      return Array.isArray(value) && value.every((v) => constMatchesType(v, ref.element, symbols, depth + 1));
    case "NamedType":
      return matchesNamed(value, ref.name, symbols, depth);
    default:
      return assertNever(ref);
  }
}

function matchesNamed(value: ConstValue, name: string, symbols: Symbols, depth: number): boolean {
  if (!isObj(value)) return false;
  const schema = symbols.schemas.get(name);
  if (schema) {
    const fields = new Map(schema.fields.map((f) => [f.name, f]));
    if (Object.keys(value).some((k) => !fields.has(k))) return false;
    return schema.fields.every((f) =>
      f.name in value
        ? constMatchesType(value[f.name], f.type, symbols, depth + 1)
        : f.optional || f.annotations.some((a) => a.name === "default"),
    );
  }
  const union = symbols.unions.get(name);
  if (union) {
    const { [union.tag]: tag, ...rest } = value;
    const members = typeof tag === "string" ? union.members.filter((m) => m.name === tag) : union.members;
    return members.some((m) => matchesNamed(rest, m.name, symbols, depth + 1));
  }
  return true; // unknown names are reported by the type rule
}
