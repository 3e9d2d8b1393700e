/**
 * §7 `for x in v`: v must be an array (the runtime fails on anything else). A value that
 * may be `null`, or that the checker cannot type, is left to the runtime.
 */
import type { CheckContext } from "../context";
import { canBe } from "../types/assignability";
import { typeMessages } from "../types/type-messages";
import { typeText } from "../types/type-model";
import { typesOf } from "../types/typed-program";
import { forEachStmt } from "../walk";

export function typesForIterable(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.forNotArray;
  for (const unit of ctx.units) {
    forEachStmt(unit.body, (s) => {
      if (s.kind !== "For") return;
      const t = typed.typeOf(s.iterable);
      if (canBe(t, ["array", "null", "never"])) return;
      ctx.report(m.text(typeText(t)), s.iterable.span, { code: m.code, hints: canBe(t, ["object"]) ? [m.objectHint] : [] });
    });
  }
}
