/**
 * §7 `a.b` on a typed value: a field no member of the value's type declares is an error
 * (the runtime would quietly read `null`: `"hi " + u.nmae` prints "hi null"), with the
 * closest declared field as a hint (or, with none close, how to say the value has more); a field read on something that is never an object
 * (a string, a number, an array, or `null` on every path — `x = null` then `x.a`) is an
 * error too: the runtime fails on it.
 */
import { didYouMean } from "../../diagnostics/did-you-mean";
import type { CheckContext } from "../context";
import { pathKey } from "../types/narrowing";
import { typeMessages } from "../types/type-messages";
import { typeText, valueText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

export function typesUnknownField(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  for (const e of typed.found.members) {
    const read = typed.fieldReads.get(e);
    if (!read || read.verdict === "ok") continue;
    const objectType = typed.typeOf(e.object);
    if (read.verdict === "unknown-field") {
      const names = read.objects.flatMap((o) => [...o.fields.keys()]);
      const m = typeMessages.unknownField;
      const guess = didYouMean(e.property, names);
      ctx.report(m.text(e.property, typeText(objectType)), e.span, { code: m.code, hints: guess.length > 0 ? guess : [m.hints.intent] });
    } else {
      const m = typeMessages.fieldOfNonObject;
      const hints = objectType.kind === "null" ? [m.hints.alwaysNull(pathKey(e.object) ?? "the value")] : [];
      ctx.report(m.text(e.property, valueText(objectType)), e.span, { code: m.code, hints });
    }
  }
}
