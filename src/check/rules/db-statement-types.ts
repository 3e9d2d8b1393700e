/**
 * §12: a query returns rows of a schema (`T[]`) or one row (`T`); a command returns one
 * schema. Primitives, enums and arrays of non-schemas are rejected; unknown names are the
 * type rule's.
 */
import type { TypeRef } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { typeText } from "../../schema/type-text";

export function dbStatementTypes(ctx: CheckContext): void {
  // A NamedType is fine here whatever it resolves to: bad names are reported once, elsewhere.
  const isSchemaRef = (ref: TypeRef) => ref.kind === "NamedType";
  for (const decl of ctx.program.decls) {
    if (decl.kind === "Query") {
      const row = decl.returns.kind === "ArrayType" ? decl.returns.element : decl.returns;
      if (!isSchemaRef(row)) ctx.report(messages.queryReturn(decl.name, typeText(decl.returns)), decl.returns.span);
    }
    if (decl.kind === "Command" && !isSchemaRef(decl.returns)) {
      ctx.report(messages.commandReturn(decl.name, typeText(decl.returns)), decl.returns.span);
    }
  }
}
