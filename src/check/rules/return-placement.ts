/**
 * §7: `return` in a fn returns its value; in top-level code it ends the script, and there
 * is nobody to hand a value to (`exit(code)` sets the status). And a `return`'s value
 * starts on its own line (the grammar's newline rule), so `return` with the value on the
 * next line is a bare `return` followed by a statement that never runs: reported as an
 * error rather than returning `null` in silence.
 */
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { forEachBlock, stmtsOf } from "../../language/walk";

export function returnPlacement(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    if (unit.kind === "top") {
      for (const s of stmtsOf(unit.flat, "Return")) if (s.value) ctx.report(messages.returnOutsideFn(), s.span);
    }
    // Only a bare `return` can have its value on the next line.
    if (!stmtsOf(unit.flat, "Return").some((s) => !s.value)) continue;
    forEachBlock(unit.body, (block) => {
      for (let i = 0; i + 1 < block.length; i++) {
        const stmt = block[i];
        if (stmt.kind === "Return" && !stmt.value) ctx.report(messages.returnValueOnNextLine(), stmt.span);
      }
    });
  }
}
