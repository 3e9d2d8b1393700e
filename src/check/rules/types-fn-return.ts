/**
 * §7 `fn f() -> T`: what the function returns — each `return expr` (a bare `return` is
 * `null`) and the expression statements its body ends with — must be able to fit `T`
 * (the runtime validates it: VALUE_INVALID). A body that ends in another statement is
 * not judged: what it yields there depends on the path taken.
 */
import type { Expr, Stmt } from "../../syntax/ast";
import type { CheckContext, CodeUnit } from "../context";
import { phrases } from "../messages";
import { mismatch } from "../types/assignability";
import { reasonHint, typeMessages } from "../types/type-messages";
import { NULL, typeText, valueText, type Type } from "../types/type-model";
import { tailExprs } from "../types/type-statements";
import { typesOf } from "../types/typed-program";

export function typesFnReturn(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.returnMismatch;
  const returnsOf = new Map<CodeUnit, Extract<Stmt, { kind: "Return" }>[]>();
  for (const s of typed.found.returns) {
    const unit = typed.found.unitOf.get(s)!;
    const list = returnsOf.get(unit);
    if (list) list.push(s);
    else returnsOf.set(unit, [s]);
  }
  for (const unit of ctx.units) {
    const fn = unit.fn;
    if (!fn?.returns) continue;
    const target = typed.table.ofRef(fn.returns);
    const judge = (value: Type, at: { span: Expr["span"] }) => {
      const why = mismatch(value, target);
      if (why === undefined) return;
      const owner = unit.agent ? phrases.callee.method(unit.agent.name, fn.name) : phrases.callee.fn(fn.name);
      const [v, t] = [valueText(value, target), typeText(target)];
      ctx.report(m.text(owner, t, v), at.span, { code: m.code, hints: reasonHint(why, value, target) });
    };
    for (const e of tailExprs(fn.body)) judge(typed.typeOf(e), e);
    for (const s of returnsOf.get(unit) ?? []) judge(s.value ? typed.typeOf(s.value) : NULL, s.value ?? s);
  }
}
