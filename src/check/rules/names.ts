/**
 * §7: every name read in code must be in scope, else `Unknown name 'x'.` What a name
 * refers to is the program's one name resolution (`language/name-resolution.ts`, which
 * states the scoping rules). Names in call position are the calls rule's (they resolve to
 * functions, methods and agents, not variables).
 */
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { isInScope } from "../../language/name-resolution";
import { exprsOf } from "../../language/walk";
import { nameHints } from "../suggestions";

export function names(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    for (const e of exprsOf(unit.flat, "Name")) {
      if (isInScope(unit.readName(e)) || unit.isCallee(e)) continue;
      ctx.report(messages.unknownName(e.name), e.span, { hints: nameHints(ctx, unit, e.name) });
    }
  }
}
