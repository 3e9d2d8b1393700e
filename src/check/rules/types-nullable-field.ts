/**
 * §7 field access on a value that may be `null` — an optional field, a single-row query,
 * a variable not assigned on every path — fails at run time when it is null. A warning
 * (the program may know better), pointing to the check that narrows it away. A value
 * that is only ever `null` is no warning but E0302 (types-unknown-field.ts): that read
 * surely fails.
 */
import type { CheckContext } from "../context";
import { pathKey } from "../types/narrowing";
import { typeMessages } from "../types/type-messages";
import { typeText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

export function typesNullableField(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.fieldOfNullable;
  for (const e of typed.found.members) {
    const read = typed.fieldReads.get(e);
    if (!read || read.verdict !== "ok" || !read.maybeNull) continue;
    const what = pathKey(e.object) ?? "value";
    ctx.warn(m.text(e.property, typeText(typed.typeOf(e.object))), e.span, { code: m.code, hints: [m.hints.checkFirst(what)] });
  }
}
