/**
 * §6–7 calls of a top-level fn or an agent method (`f(x)`, `Agent.m(x)`, a sibling by
 * bare name): each argument must be able to fit its parameter's declared type (the
 * runtime validates it). Argument counts are the calls rule's.
 */
import type { Expr, FnDecl } from "../../syntax/ast";
import type { CheckContext, CodeUnit } from "../context";
import { phrases } from "../messages";
import { mismatch } from "../types/assignability";
import { reasonHint, typeMessages } from "../types/type-messages";
import { typeText, valueText } from "../types/type-model";
import { typesOf } from "../types/typed-program";

/** `function 'f'` or `method 'A.m'`, as the call resolved. */
export function calleeText(ctx: CheckContext, unit: CodeUnit, callee: Expr, fn: FnDecl): string {
  if (callee.kind === "Member" && callee.object.kind === "Name") return phrases.owner.method(callee.object.name, fn.name);
  if (callee.kind === "Member" && callee.object.kind === "Call" && callee.object.callee.kind === "Name") return phrases.owner.method(callee.object.callee.name, fn.name);
  if (unit.agent && ctx.agentMethods(unit.agent).get(fn.name) === fn) return phrases.owner.method(unit.agent.name, fn.name);
  return phrases.owner.decl("function", fn.name);
}

export function typesFnArguments(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.argumentMismatch;
  for (const e of typed.found.calls) {
    const fn = typed.callees.get(e);
    const unit = typed.found.unitOf.get(e);
    if (!fn || !unit) continue;
    const count = Math.min(e.args.length, fn.params.length);
    for (let i = 0; i < count; i++) {
      const param = fn.params[i];
      const target = typed.table.ofField(param);
      const value = typed.typeOf(e.args[i]);
      const why = mismatch(value, target);
      if (why === undefined) continue;
      const [v, t] = [valueText(value, target), typeText(target)];
      const text = m.text(i + 1, param.name, calleeText(ctx, unit, e.callee, fn), t, v);
      ctx.report(text, e.args[i].span, { code: m.code, hints: reasonHint(why, value, target) });
    }
  }
}
