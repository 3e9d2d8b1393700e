/**
 * §7: `break` and `continue` belong to the innermost `for` or `while` of their own code
 * unit; a fn called from a loop does not see it, so outside a loop they are an error.
 */
import type { Stmt } from "../../syntax/ast";
import { nestedBlocks } from "../../language/ast-children";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { stmtsOf } from "../../language/walk";

export function loopJumpPlacement(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    // Only a body with a `break` or `continue` has anything to place.
    if (stmtsOf(unit.flat, "Break").length > 0 || stmtsOf(unit.flat, "Continue").length > 0) visit(ctx, unit.body, false);
  }
}

function visit(ctx: CheckContext, stmts: readonly Stmt[], inLoop: boolean): void {
  for (const s of stmts) {
    if ((s.kind === "Break" || s.kind === "Continue") && !inLoop) {
      ctx.report(messages.jumpOutsideLoop(s.kind === "Break" ? "break" : "continue"), s.span);
    }
    const loop = inLoop || s.kind === "For" || s.kind === "While";
    for (const block of nestedBlocks(s)) visit(ctx, block, loop);
  }
}
