/**
 * §7 builtins whose argument has to be of a kind — `len` (a string, an array or an
 * object), `keys` (an object) — called with a value that never is (RUNTIME_ERROR at run
 * time). The signatures are the table in `types/builtin-signatures.ts`.
 */
import { BUILTINS } from "../builtins";
import type { CheckContext } from "../context";
import { mismatch } from "../types/assignability";
import { builtinSignature } from "../types/builtin-signatures";
import { typeMessages } from "../types/type-messages";
import { valueText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

export function typesBuiltinArguments(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.builtinArgument;
  for (const e of typed.found.calls) {
    if (e.callee.kind !== "Name" || typed.callees.has(e)) continue;
    const sig = builtinSignature(e.callee.name);
    const arity = BUILTINS[e.callee.name];
    // A wrong argument count is the calls rule's; its arguments say nothing then.
    if (!sig?.accepts || e.args.length < arity.min || e.args.length > arity.max) continue;
    for (const arg of e.args) {
      const t = typed.typeOf(arg);
      if (mismatch(t, sig.accepts) !== undefined) ctx.report(m.text(e.callee.name, sig.acceptsText!, valueText(t)), arg.span, { code: m.code });
    }
  }
}
