/**
 * §3: duplicate field names are check errors; the same holds for every other list of
 * named members — parameters, agent methods, union members, `needs` names and the keys
 * of a declaration block. Reported at the second occurrence.
 */
import type { Decl, Span } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages, phrases } from "../messages";
import { KIND_NOUN } from "../symbols";

type Named = { name: string; span: Span };

function reportRepeats(ctx: CheckContext, items: readonly Named[], what: string, owner: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.name)) ctx.report(messages.duplicateMember(what, item.name, owner), item.span);
    seen.add(item.name);
  }
}

const named = (name: string, span: Span): Named => ({ name, span });

/** The member lists of one declaration, each with the word its messages use. */
function memberLists(decl: Decl): [string, Named[]][] {
  switch (decl.kind) {
    case "Schema":
      return [["field", decl.fields.map((f) => named(f.name, f.nameSpan))]];
    case "Union":
      return [["member", decl.members.map((m) => named(m.name, m.span))]];
    case "Tool":
      return [
        ["parameter", decl.params.map((p) => named(p.name, p.nameSpan))],
        ["needs", decl.needs.map((n) => named(n.name, n.nameSpan))],
        ["key", decl.options.map((e) => named(e.key, e.keySpan))],
      ];
    case "Fn":
      return [["parameter", decl.params.map((p) => named(p.name, p.nameSpan))]];
    case "Agent":
      return [
        ["key", decl.entries.map((e) => named(e.key, e.keySpan))],
        ["method", decl.methods.map((m) => named(m.name, m.nameSpan))],
      ];
    case "Query":
    case "Command":
      return [
        ["parameter", decl.params.map((p) => named(p.name, p.nameSpan))],
        ["key", decl.entries.map((e) => named(e.key, e.keySpan))],
      ];
    case "Model":
    case "Datasource":
      return [["key", decl.entries.map((e) => named(e.key, e.keySpan))]];
  }
}

export function duplicateMembers(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) {
    const owner = phrases.owner.decl(KIND_NOUN[decl.kind], decl.name);
    for (const [what, items] of memberLists(decl)) reportRepeats(ctx, items, what, owner);
    if (decl.kind === "Agent") {
      for (const m of decl.methods) {
        const params = m.params.map((p) => named(p.name, p.nameSpan));
        reportRepeats(ctx, params, "parameter", phrases.owner.method(decl.name, m.name));
      }
    }
  }
}
