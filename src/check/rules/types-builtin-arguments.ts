/**
 * §7 builtins whose arguments have to be of a kind — `len` (a string, an array or an
 * object), `keys` (an object), `split` (strings), `range` (ints) … — called with a value
 * that never is (RUNTIME_ERROR at run time). The signatures are the table in
 * `types/builtin-signatures.ts`.
 */
import { BUILTINS, isBuiltin } from "../../language/builtins";
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
    const name = e.callee.name;
    if (!isBuiltin(name)) continue;
    const arity = BUILTINS[name];
    // A wrong argument count is the calls rule's; its arguments say nothing then.
    const params = builtinSignature(name)?.params;
    if (!params || e.args.length < arity.min || e.args.length > arity.max) continue;
    e.args.forEach((arg, i) => {
      const p = params[Math.min(i, params.length - 1)];
      const t = typed.typeOf(arg);
      if (mismatch(t, p.type) !== undefined) ctx.report(m.text(name, p.text, valueText(t)), arg.span, { code: m.code });
    });
  }
}
