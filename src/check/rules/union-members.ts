/**
 * §3 tagged unions: every member must be a declared plain schema (not another union, not
 * a tool…), and the tag field the runtime writes must not collide with a member's own
 * field — otherwise the discriminator would overwrite data.
 */
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { KIND_NOUN, withArticle } from "../../language/declaration-nouns";
import { declHints } from "../suggestions";

export function unionMembers(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) {
    if (decl.kind !== "Union") continue;
    for (const member of decl.members) {
      const schema = ctx.symbols.schemas.get(member.name);
      if (schema) {
        if (schema.fields.some((f) => f.name === decl.tag)) {
          ctx.report(messages.unionTagClash(decl.tag, decl.name, member.name), decl.tagSpan);
        }
        continue;
      }
      const other = ctx.symbols.byName.get(member.name);
      if (!other) ctx.report(messages.unknownSchema(member.name), member.span, { hints: declHints(ctx, ["Schema"], member.name) });
      else if (other.kind === "Union") ctx.report(messages.unionMemberNotPlain(member.name, decl.name), member.span);
      else ctx.report(messages.wrongKind(member.name, withArticle(KIND_NOUN[other.kind]), "schema"), member.span);
    }
  }
}
