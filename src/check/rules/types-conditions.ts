/**
 * §7 `if cond` and `while cond`: the condition must be a bool. A value that may be `null` is accepted as a
 * presence test (`if user.email { … }` narrows it), as is anything the checker cannot
 * type (an `assert` condition likewise); a value that is surely a string, a number, an array or an object is an error —
 * its truthiness (`""`, `0`) is rarely what was meant, so the hint shows the comparison.
 */
import type { CheckContext } from "../context";
import { canBe } from "../types/assignability";
import { typeMessages } from "../types/type-messages";
import { typeText, type Type } from "../types/type-model";
import { typesOf } from "../types/typed-program";

const ACCEPTED: Type["kind"][] = ["bool", "null", "never"];

export function typesConditions(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.conditionNotBool;
  for (const s of typed.found.ifs) {
    const t = typed.typeOf(s.cond);
    if (!canBe(t, ACCEPTED)) ctx.report(m.text(typeText(t), s.kind === "While" ? "while" : "if"), s.cond.span, { code: m.code, hints: [m.hints.compare] });
  }
  const a = typeMessages.assertNotBool;
  for (const s of typed.found.asserts) {
    const t = typed.typeOf(s.cond);
    if (!canBe(t, ACCEPTED)) ctx.report(a.text(typeText(t)), s.cond.span, { code: a.code, hints: [a.hints.compare] });
  }
}
