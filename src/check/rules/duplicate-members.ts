/**
 * §3: duplicate field names are check errors; the same holds for every other list of
 * named members — parameters, agent methods, union members, `needs` names and the keys
 * of a declaration block. Reported at the second occurrence.
 */
import type { Decl, Entry, Field, Span } from "../../syntax/ast";
import { assertNever } from "../../syntax/assert-never";
import type { CheckContext } from "../context";
import { messages, phrases } from "../messages";
import { KIND_NOUN } from "../../language/declaration-nouns";

/** One member list: its items, how each is named and placed, and the word messages use (items differ per list, hence `any`). */
type MemberList<T = any> = readonly [what: string, items: readonly T[], name: (item: T) => string, span: (item: T) => Span];

/** `owner` is built only when there is a repeat to report (a large program has thousands of lists). */
function reportRepeats(ctx: CheckContext, [what, items, nameOf, spanOf]: MemberList, owner: () => string): void {
  if (items.length < 2) return;
  const seen = new Set<string>();
  for (const item of items) {
    const name = nameOf(item);
    if (seen.has(name)) ctx.report(messages.duplicateMember(what, name, owner()), spanOf(item));
    seen.add(name);
  }
}

const nameOf = (x: { name: string }) => x.name;
const nameSpanOf = (x: { nameSpan: Span }) => x.nameSpan;
const entryKey = (e: Entry) => e.key;
const entrySpan = (e: Entry) => e.keySpan;
const params = (list: readonly Field[]): MemberList<Field> => ["parameter", list, nameOf, nameSpanOf];
const keys = (list: readonly Entry[]): MemberList<Entry> => ["key", list, entryKey, entrySpan];

/** The member lists of one declaration. */
function memberLists(decl: Decl): MemberList[] {
  switch (decl.kind) {
    case "Schema":
      return [["field", decl.fields, nameOf, nameSpanOf]];
    case "Union":
      return [["member", decl.members, nameOf, (m: { span: Span }) => m.span]];
    case "Tool":
      return [params(decl.params), ["needs", decl.needs, nameOf, nameSpanOf], keys(decl.options)];
    case "Fn":
      return [params(decl.params)];
    case "Agent":
      return [keys(decl.entries), ["method", decl.methods, nameOf, nameSpanOf]];
    case "Query":
    case "Command":
      return [params(decl.params), keys(decl.entries)];
    case "Model":
    case "Datasource":
      return [keys(decl.entries)];
    default:
      return assertNever(decl);
  }
}

export function duplicateMembers(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) {
    const owner = () => phrases.owner.decl(KIND_NOUN[decl.kind], decl.name);
    for (const list of memberLists(decl)) reportRepeats(ctx, list, owner);
    if (decl.kind === "Agent") {
      for (const m of decl.methods) reportRepeats(ctx, params(m.params), () => phrases.owner.method(decl.name, m.name));
    }
  }
}
