/**
 * §7 a variable declared with a type (`count: int = 0`) keeps that type: a later plain
 * assignment of a value that can never be one (`count = "seven"`) is an error. A new
 * typed assignment re-declares the variable and is judged by the assignment rule.
 */
import type { CheckContext } from "../context";
import { mismatch } from "../types/assignability";
import { reasonHint, typeMessages } from "../types/type-messages";
import { typeText, valueText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

export function typesReassignment(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.reassignMismatch;
  for (const s of typed.found.assigns) {
    const declared = typed.declared.get(s);
    if (!declared) continue;
    const value = typed.typeOf(s.value);
    const why = mismatch(value, declared);
    if (why === undefined) continue;
    const [v, t] = [valueText(value, declared), typeText(declared)];
    ctx.report(m.text(s.name, t, v), s.value.span, { code: m.code, hints: [...reasonHint(why, value, declared), m.hints.newName(s.name)] });
  }
}
