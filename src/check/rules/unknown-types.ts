/**
 * §2: a `Name` type must be a declared schema or tagged union — wherever a type is
 * written: fields, parameters, return types, `needs`, typed assignments, `ask` targets.
 */
import type { Field, TypeRef } from "../../syntax/ast";
import { assertNever } from "../../syntax/assert-never";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { KIND_NOUN, withArticle } from "../../language/declaration-nouns";
import { forEachTypeInBody } from "../../language/walk";
import { typeHints } from "../suggestions";
import { BUILTIN_TYPES } from "../types/type-model";

export function unknownTypes(ctx: CheckContext): void {
  const visit = (ref: TypeRef): void => {
    if (ref.kind === "ArrayType") return visit(ref.element);
    if (ref.kind !== "NamedType") return;
    const resolved = ctx.resolveType(ref);
    // `Thread`, `Message`: the language's own (where they may stand is thread-types.ts's).
    if (resolved.kind === "missing" && BUILTIN_TYPES.has(ref.name)) return;
    if (resolved.kind === "missing") ctx.report(messages.unknownSchema(ref.name), ref.span, { hints: typeHints(ctx, ref.name) });
    if (resolved.kind === "not-a-type") {
      const decl = ctx.symbols.byName.get(ref.name)!;
      ctx.report(messages.wrongKind(ref.name, withArticle(KIND_NOUN[decl.kind]), "schema"), ref.span);
    }
  };
  const fields = (list: readonly Field[]) => list.forEach((f) => visit(f.type));

  for (const decl of ctx.program.decls) {
    switch (decl.kind) {
      case "Schema":
        fields(decl.fields);
        break;
      case "Tool":
        fields(decl.params);
        visit(decl.returns);
        decl.needs.forEach((n) => visit(n.type));
        break;
      case "Query":
      case "Command":
        fields(decl.params);
        visit(decl.returns);
        break;
      // An agent's parameters (its methods are code units, visited below).
      case "Agent":
        fields(decl.params ?? []);
        break;
      // Functions are code units: their types are visited below.
      case "Fn":
      case "Union":
      case "Model":
      case "Datasource":
        break;
      default:
        assertNever(decl);
    }
  }
  for (const unit of ctx.units) {
    fields(unit.params);
    if (unit.fn?.returns) visit(unit.fn.returns);
    forEachTypeInBody(unit.flat, visit);
  }
}
