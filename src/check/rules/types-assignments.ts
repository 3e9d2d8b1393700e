/**
 * §7 `x: T = v`: the value must be able to fit `T` (the runtime validates it and fails
 * with VALUE_INVALID otherwise). Structural, like the runtime: the seed's
 * `x: Result = tool name({ … })` re-validation is legal whenever the tool's result could
 * pass as a `Result`, and an error only when it never can.
 */
import type { CheckContext } from "../context";
import { mismatch } from "../types/assignability";
import { reasonHint, typeMessages } from "../types/type-messages";
import { typeText, valueText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

export function typesAssignments(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.assignMismatch;
  for (const s of typed.found.assigns) {
    if (!s.type) continue;
    const target = typed.table.ofRef(s.type);
    const value = typed.typeOf(s.value);
    const why = mismatch(value, target);
    if (why === undefined) continue;
    const [v, t] = [valueText(value, target), typeText(target)];
    ctx.report(m.text(s.name, t, v), s.value.span, { code: m.code, hints: reasonHint(why, value, target) });
  }
}
