/**
 * §3/§12: schemas, unions, tools, models, agents, fns, datasources, queries and commands
 * share one namespace; a name declared twice is reported at the second declaration.
 */
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { KIND_NOUN, withArticle } from "../../language/declaration-nouns";

export function duplicateDeclarations(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) {
    const first = ctx.symbols.byName.get(decl.name);
    if (!first || first === decl) continue;
    const noun = KIND_NOUN[decl.kind];
    const firstNoun = KIND_NOUN[first.kind];
    ctx.report(
      noun === firstNoun ? messages.duplicateDecl(noun, decl.name) : messages.duplicateName(decl.name, withArticle(firstNoun)),
      decl.nameSpan,
    );
  }
}
