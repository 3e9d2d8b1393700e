/**
 * §7: every name read in code must be in scope (see `name-scope.ts`), else
 * `Unknown name 'x'.` Names in call position are the calls rule's (they resolve to
 * functions, methods and agents, not variables).
 */
import type { Expr } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { calleeNames, isNameInScope } from "../name-scope";
import { exprsOf } from "../../language/walk";
import { nameHints } from "../suggestions";

export function names(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    // Built only for a unit that reads a name out of scope: most read none.
    let skip: Set<Expr> | undefined;
    for (const e of exprsOf(unit.flat, "Name")) {
      if (isNameInScope(ctx, unit, e.name)) continue;
      skip ??= calleeNames(unit);
      if (!skip.has(e)) ctx.report(messages.unknownName(e.name), e.span, { hints: nameHints(ctx, unit, e.name) });
    }
  }
}
