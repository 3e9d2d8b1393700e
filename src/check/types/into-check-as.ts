/**
 * What a field or item write must be validated against at run time. The runtime does not
 * import the checker, so it cannot ask for the target's type: where the checker knows the
 * target's *declared* type (a field of a schema, an item of an array a schema field or a
 * schema's item type declares) and the value's static type does not prove it fits (`any`,
 * a union, a schema value), it records that type on the `AssignInto` node (`checkAs`). The
 * run validates the value against it before writing, as it does `x: T = v`, so a typed
 * value keeps its type's rules: `order.status = pick("lost")` fails with VALUE_INVALID.
 *
 * `o.b = v` and `o["b"] = v` (a literal string key) are one target. A type only inferred
 * from a literal (`o = { status: "new" }`) declares nothing: such a target takes any value.
 * A schema field's value rules (`@range`, `@pattern`…) come with it: the run checks them too.
 */
import type { AssignTarget, Expr, IntoCheck, TypeRef } from "../../syntax/ast";
import type { Symbols } from "../symbols";
import { hasDefault } from "./type-of-schema";
import type { Type } from "./type-model";

/** The key a target writes when it is written in source: `o.b`, `o["b"]`, `xs[0]`. */
export function literalKey(t: AssignTarget): string | number | undefined {
  if (t.kind === "Member") return t.property;
  const i = t.index;
  if (i.kind === "Num") return i.value;
  if (i.kind === "Str" && i.parts.every((p) => typeof p === "string")) return i.parts.join("");
  return undefined;
}

const nonNull = (t: Type): Type[] => (t.kind === "union" ? t.members : [t]).filter((m) => m.kind !== "null");

/** The schema a value of this type is, when it is one schema (or null). */
function schemaOf(t: Type): string | undefined {
  const members = nonNull(t);
  const first = members[0];
  if (!first || first.kind !== "object" || first.name === undefined) return undefined;
  return members.every((m) => m.kind === "object" && m.name === first.name) ? first.name : undefined;
}

/** The declared type of the field or item `t` writes, when the program declares one. */
/**
 * `declaredAs`: the type a variable or parameter was declared with (`xs: int[] = …`,
 * `fn f(xs: int[])`), from the program's name resolution; undefined when it was only inferred.
 */
export function declaredInto(t: AssignTarget, symbols: Symbols, typeOf: (e: Expr) => Type, declaredAs?: (name: Extract<Expr, { kind: "Name" }>) => TypeRef | undefined): IntoCheck | undefined {
  const key = literalKey(t);
  if (typeof key === "string") {
    const schema = schemaOf(typeOf(t.object));
    if (schema === undefined) return wholeObject(t, typeOf);
    const field = symbols.schemas.get(schema)?.fields.find((f) => f.name === key);
    if (!field) return undefined;
    const check: IntoCheck = { type: field.type, orNull: field.optional && !hasDefault(field) };
    if (field.annotations.some((a) => a.name !== "desc" && a.name !== "default")) check.field = field;
    return check;
  }
  if (t.kind !== "Index") return undefined;
  if (key === undefined) {
    const whole = wholeObject(t, typeOf);
    if (whole) return whole;
  }
  // An item: of an array a schema field declares (`o.tags[0]`), else of an array of schema values.
  const outer = t.object.kind === "Member" || t.object.kind === "Index" ? declaredInto(t.object, symbols, typeOf, declaredAs) : undefined;
  if (outer) return outer.type.kind === "ArrayType" ? { type: outer.type.element, orNull: false } : undefined;
  const arrays = nonNull(typeOf(t.object));
  const array = arrays.length === 1 ? arrays[0] : undefined;
  if (!array || array.kind !== "array") return undefined;
  const el = array.element;
  const hasNull = el.kind === "union" && el.members.some((m) => m.kind === "null");
  const name = el.kind === "union" && el.name !== undefined ? el.name : schemaOf(el);
  if (name !== undefined) return { type: { kind: "NamedType", name, span: t.span }, orNull: hasNull };
  // An item of a variable or parameter declared as an array (`xs: int[]`, `xs[0] = v`): its item type.
  const declared = t.object.kind === "Name" ? declaredAs?.(t.object) : undefined;
  return declared?.kind === "ArrayType" ? { type: declared.element, orNull: false } : undefined;
}

/**
 * A write whose field is known only at run time — a computed key into a schema value
 * (`o[k] = v`), or any key into a tagged union not narrowed to one member — is checked
 * on the whole object: the object as it would be after the write must still be a value of
 * its declared schema or union.
 */
function wholeObject(t: AssignTarget, typeOf: (e: Expr) => Type): IntoCheck | undefined {
  const owner = typeOf(t.object);
  const members = nonNull(owner);
  const union = owner.kind === "union" && owner.name !== undefined ? owner.name : undefined;
  const named = members.length === 1 && members[0].kind === "union" && members[0].name !== undefined ? members[0].name : undefined;
  const name = union ?? named ?? schemaOf(owner);
  return name === undefined ? undefined : { type: { kind: "NamedType", name, span: t.span }, orNull: false, whole: true };
}

/** Whether a value of static type `v` is sure to pass validation against `ref`: then no run-time check is needed. */
export function provesFit(v: Type, check: IntoCheck): boolean {
  if (check.field || check.whole) return false; // its value rules (or its field) are the run's to find
  if (v.kind === "null") return check.orNull;
  const ref: TypeRef = check.type;
  if (ref.kind === "EnumType") return v.kind === "string" && v.values !== undefined && v.values.every((x) => ref.values.includes(x));
  if (ref.kind !== "PrimType") return false;
  if (ref.name === "any") return true;
  if (ref.name === "float") return v.kind === "int" || v.kind === "float";
  return v.kind === ref.name;
}
