/**
 * §7 `for x in v`: v must be an array (the runtime fails on anything else). A value that
 * may be `null`, or that the checker cannot type, is left to the runtime.
 */
import type { CheckContext } from "../context";
import { canBe } from "../types/assignability";
import { typeMessages } from "../types/type-messages";
import { typeText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

export function typesForIterable(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.forNotArray;
  for (const s of typed.found.fors) {
    const t = typed.typeOf(s.iterable);
    if (canBe(t, ["array", "null", "never"])) continue;
    ctx.report(m.text(typeText(t)), s.iterable.span, { code: m.code, hints: canBe(t, ["object"]) ? [m.hints.keys] : [] });
  }
}
