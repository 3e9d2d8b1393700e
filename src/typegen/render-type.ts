/**
 * A Luma type as TypeScript (spec §13): `int`/`float` → `number`, `bool` → `boolean`,
 * `any` → `unknown` (a handler must narrow what it did not declare — the same reason the
 * seed calls `input: any` a type leak), `enum[...]` → a union of string literals, `T[]`
 * → `T[]` with a union element parenthesised, a name → that declared type.
 */
import type { PrimName, TypeRef } from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";

const PRIMS: Record<PrimName, string> = {
  string: "string",
  int: "number",
  float: "number",
  bool: "boolean",
  any: "unknown",
};

export function renderType(ref: TypeRef): string {
  switch (ref.kind) {
    case "PrimType":
      return PRIMS[ref.name];
    case "EnumType":
      return ref.values.length === 0 ? "never" : ref.values.map((v) => JSON.stringify(v)).join(" | ");
    case "ArrayType": {
      const element = renderType(ref.element);
      const needsParens = ref.element.kind === "EnumType" && ref.element.values.length !== 1;
      return needsParens ? `(${element})[]` : `${element}[]`;
    }
    case "NamedType":
      return ref.name;
    default:
      return assertNever(ref);
  }
}
