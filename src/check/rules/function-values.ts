/**
 * §7: functions and agents are called, never read as values. `y = f`, `calls(print)`,
 * `x = len`, `print(A)` or `m = A.run` name a top-level fn, a builtin or an agent where a
 * value belongs; no value of the language is one, so the runtime always stops there
 * (`'f' is a function; call it: f(…), not a value`). The checker says so first, with the
 * call as the hint.
 *
 * A name the unit binds (a parameter, an assignment, a `for` or `catch` name) is a variable
 * and shadows the declaration, as at run time; so does `args` in top-level code. Names in call position are the calls rule's;
 * strings (`calls("lookup")`) and declaration keys (`tools: [lookup]`) are no code at all.
 */
import type { Expr } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { exprsOf } from "../../language/walk";

export function functionValues(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    // `A.run` without a call: the method is what was meant (`A.nope` is the agent read as a value).
    let reported: Set<Expr> | undefined;
    for (const e of exprsOf(unit.flat, "Member")) {
      if (e.object.kind !== "Name") continue;
      const target = unit.readName(e.object);
      if (target.kind !== "agent" || !ctx.agentMethods(target.decl).has(e.property) || unit.isCallee(e.object)) continue;
      (reported ??= new Set()).add(e.object);
      const method = `${target.decl.name}.${e.property}`;
      ctx.report(messages.functionValue(method, `a method of agent '${target.decl.name}'`), e.span, { hints: [`call it: ${method}(…)`] });
    }
    for (const e of exprsOf(unit.flat, "Name")) {
      const target = unit.readName(e);
      if (target.kind !== "agent" && target.kind !== "fn" && target.kind !== "builtin") continue;
      if (reported?.has(e) || unit.isCallee(e)) continue;
      if (target.kind === "agent") {
        ctx.report(messages.functionValue(e.name, "an agent"), e.span, { hints: [`call one of its methods: ${e.name}.method(…)`] });
      } else {
        const what = target.kind === "fn" ? "a function" : "a builtin function";
        ctx.report(messages.functionValue(e.name, what), e.span, { hints: [`call it: ${e.name}(…)`] });
      }
    }
  }
}
