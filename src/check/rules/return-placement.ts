/**
 * §7: `return` belongs to a fn; top-level code has nothing to return from. And a
 * `return`'s value starts on its own line (the grammar's newline rule), so `return` with
 * the value on the next line is a bare `return` followed by a statement that never runs:
 * reported as an error rather than returning `null` in silence.
 */
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { forEachBlock, forEachStmt } from "../walk";

export function returnPlacement(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    if (unit.kind === "top") {
      forEachStmt(unit.body, (s) => {
        if (s.kind === "Return") ctx.report(messages.returnOutsideFn(), s.span);
      });
      continue;
    }
    forEachBlock(unit.body, (block) => {
      for (let i = 0; i + 1 < block.length; i++) {
        const stmt = block[i];
        if (stmt.kind === "Return" && !stmt.value) ctx.report(messages.returnValueOnNextLine(), stmt.span);
      }
    });
  }
}
