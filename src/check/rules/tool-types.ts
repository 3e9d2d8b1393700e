/**
 * §4: a tool returns a declared schema or tagged union — never a primitive, an enum or an
 * array — and each `needs` dependency is typed by a declared plain schema (the runtime
 * checks the host-built object against its fields). Unknown names are the type rule's.
 */
import type { TypeRef } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { typeText } from "../../schema/type-text";

export function toolTypes(ctx: CheckContext): void {
  const alreadyReported = (ref: TypeRef) => {
    const r = ctx.resolveType(ref);
    return r.kind === "missing" || r.kind === "not-a-type";
  };
  for (const tool of ctx.program.decls) {
    if (tool.kind !== "Tool") continue;
    if (tool.returns.kind !== "NamedType") ctx.report(messages.toolReturn(tool.name, typeText(tool.returns)), tool.returns.span);
    for (const needs of tool.needs) {
      if (alreadyReported(needs.type)) continue; // unknown or non-schema name: the type rule reported it
      if (ctx.resolveType(needs.type).kind !== "schema") {
        ctx.report(messages.needsType(tool.name, needs.name, typeText(needs.type)), needs.type.span);
      }
    }
  }
}
