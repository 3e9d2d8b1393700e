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
import type { NameTarget } from "../../language/name-resolution";
import type { CheckContext } from "../context";
import { messages } from "../messages";
import { exprsOf } from "../../language/walk";

export function functionValues(ctx: CheckContext): void {
  /** What a name read as a value (not called) refers to, from the one name resolution. */
  const readTarget = (e: Expr): NameTarget | undefined => (e.kind === "Name" && !ctx.names.isCallee(e) ? ctx.names.targetOf(e) : undefined);
  for (const unit of ctx.units) {
    // `A.run` without a call: the method is what was meant (`A.nope` is the agent read as a value).
    const reported = new Set<Expr>();
    for (const e of exprsOf(unit.flat, "Member")) {
      const target = readTarget(e.object);
      if (target?.kind !== "agent" || !ctx.agentMethods(target.decl).has(e.property)) continue;
      reported.add(e.object);
      const method = `${target.decl.name}.${e.property}`;
      ctx.report(messages.functionValue(method, `a method of agent '${target.decl.name}'`), e.span, { hints: [`call it: ${method}(…)`] });
    }
    for (const e of exprsOf(unit.flat, "Name")) {
      const target = readTarget(e);
      if (!target || reported.has(e)) continue;
      if (target.kind === "agent") {
        ctx.report(messages.functionValue(e.name, "an agent"), e.span, { hints: [`call one of its methods: ${e.name}.method(…)`] });
      } else if (target.kind === "fn" || target.kind === "builtin") {
        const what = target.kind === "fn" ? "a function" : "a builtin function";
        ctx.report(messages.functionValue(e.name, what), e.span, { hints: [`call it: ${e.name}(…)`] });
      }
    }
  }
}
