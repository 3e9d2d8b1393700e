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
    if (tool.returns.kind !== "NamedType") {
      // A list (or a primitive) is one field of a schema the tool returns instead.
      const type = typeText(tool.returns);
      const field = type.endsWith("[]") ? "items" : "value";
      const hints = [`wrap it in a schema: \`schema ${pascalOf(tool.name)}Result { ${field}: ${type} }\`, and return that`];
      ctx.report(messages.toolReturn(tool.name, typeText(tool.returns)), tool.returns.span, { hints });
    }
    for (const needs of tool.needs) {
      if (alreadyReported(needs.type)) continue; // unknown or non-schema name: the type rule reported it
      if (ctx.resolveType(needs.type).kind !== "schema") {
        ctx.report(messages.needsType(tool.name, needs.name, typeText(needs.type)), needs.type.span);
      }
    }
  }
}

/** `list_orders` → `ListOrders`: a schema name a hint can suggest. */
const pascalOf = (name: string): string => name.split(/_+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
