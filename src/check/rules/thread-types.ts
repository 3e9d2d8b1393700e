/**
 * Issue #26 §1: where the conversation types may stand, and what `ask … in` takes.
 *
 * - `Thread` and `Message` (the language's own types, unless the program declares a schema
 *   of that name) are types of code: a schema's field, a tool's, query's or command's input
 *   or output, a `needs`, or an ask's answer are data, validated against schemas — E0297.
 * - `ask … in t`: `t` must be able to be a `Thread` (E0296); what the checker cannot type is
 *   let through, as everywhere.
 */
import type { Field, TypeRef } from "../../syntax/ast";
import { exprsOf } from "../../language/walk";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { mismatch } from "../types/assignability";
import { BUILTIN_TYPES, THREAD, typeText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

export function threadTypes(ctx: CheckContext): void {
  const data = (ref: TypeRef, where: string): void => {
    if (ref.kind === "ArrayType") return data(ref.element, where);
    if (ref.kind !== "NamedType" || !BUILTIN_TYPES.has(ref.name) || ctx.resolveType(ref).kind !== "missing") return;
    ctx.report(messages.handleAsData(ref.name, where), ref.span);
  };
  const fields = (list: readonly Field[], where: string) => list.forEach((f) => data(f.type, where));
  for (const decl of ctx.program.decls) {
    if (decl.kind === "Schema") fields(decl.fields, "a schema's field");
    else if (decl.kind === "Tool") {
      fields(decl.params, "a tool's input");
      data(decl.returns, "a tool's output");
      decl.needs.forEach((n) => data(n.type, "a tool's needs"));
    } else if (decl.kind === "Query" || decl.kind === "Command") {
      fields(decl.params, `a ${decl.kind.toLowerCase()}'s input`);
      data(decl.returns, `a ${decl.kind.toLowerCase()}'s rows`);
    }
  }
  const typed = typesOf(ctx);
  for (const unit of ctx.units) {
    for (const ask of exprsOf(unit.flat, "Ask")) {
      data(ask.target, "an ask's answer");
      if (!ask.thread) continue;
      const t = typed.typeOf(ask.thread);
      if (mismatch(t, THREAD) !== undefined) ctx.report(messages.askInNotThread(typeText(t)), ask.thread.span);
    }
  }
}
