/** §12: `query x(…)` names a declared query and `command y(…)` a declared command. */
import { exprsOf } from "../../language/walk";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { withArticle } from "../../language/declaration-nouns";
import { declHints } from "../suggestions";

export function dbCalls(ctx: CheckContext): void {
  const { queries, commands } = ctx.symbols;
  for (const unit of ctx.units) {
    for (const e of exprsOf(unit.flat, "DbCall")) {
      const [own, other, otherOp] = e.op === "query" ? [queries, commands, "command"] : [commands, queries, "query"];
      if (own.has(e.name)) continue;
      if (other.has(e.name)) ctx.report(messages.wrongKind(e.name, withArticle(otherOp), e.op), e.nameSpan);
      else ctx.report(messages.unknownDb(e.op, e.name), e.nameSpan, { hints: declHints(ctx, [e.op === "query" ? "Query" : "Command"], e.name) });
    }
  }
}
