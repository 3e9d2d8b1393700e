/** §7: `return` belongs to a fn; top-level code has nothing to return from. */
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { forEachStmt } from "../walk";

export function returnPlacement(ctx: CheckContext): void {
  const top = ctx.units.find((u) => u.kind === "top");
  if (!top) return;
  forEachStmt(top.body, (s) => {
    if (s.kind === "Return") ctx.report(messages.returnOutsideFn(), s.span);
  });
}
