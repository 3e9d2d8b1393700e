/**
 * A type reference as source text: `int[]`, `enum["en", "tr"]`, `Answer`. It is both what
 * messages show and the cache key of `typeOf`/`validate` — two references that print the
 * same denote the same type, so they share one compiled validator.
 */
import type { TypeRef } from "../syntax/ast";

export function typeText(ref: TypeRef): string {
  switch (ref.kind) {
    case "PrimType":
      return ref.name;
    case "EnumType":
      return `enum[${ref.values.map((v) => JSON.stringify(v)).join(", ")}]`;
    case "ArrayType":
      return `${typeText(ref.element)}[]`;
    case "NamedType":
      return ref.name;
    default: {
      // schema/ reads the AST as types only (ARCHITECTURE.md): assertNever's check, by hand.
      const unhandled: never = ref;
      return unhandled;
    }
  }
}
