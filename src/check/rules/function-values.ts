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
import { isBuiltin } from "../../language/builtins";
import type { CheckContext, CodeUnit } from "../context";
import { messages } from "../messages";
import { calleeNames } from "../name-scope";
import { exprsOf } from "../../language/walk";

export function functionValues(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    // Built only for a unit that names a function or agent at all: most name them only to call them.
    let skip: Set<Expr> | undefined;
    const variable = (name: string) => unit.locals.has(name) || (unit.kind === "top" && name === "args");
    const declared = (e: Expr): e is Extract<Expr, { kind: "Name" }> =>
      e.kind === "Name" && !variable(e.name) && (ctx.symbols.fns.has(e.name) || isBuiltin(e.name) || ctx.symbols.agents.has(e.name));
    // `A.run` without a call: the method is what was meant (`A.nope` is the agent read as a value).
    for (const e of exprsOf(unit.flat, "Member")) {
      if (!declared(e.object)) continue;
      const agent = ctx.symbols.agents.get(e.object.name);
      if (!agent || !ctx.agentMethods(agent).has(e.property)) continue;
      skip ??= calleeNames(unit);
      if (skip.has(e.object)) continue;
      skip.add(e.object);
      const method = `${e.object.name}.${e.property}`;
      ctx.report(messages.functionValue(method, `a method of agent '${e.object.name}'`), e.span, { hints: [`call it: ${method}(…)`] });
    }
    for (const e of exprsOf(unit.flat, "Name")) {
      if (!declared(e)) continue;
      skip ??= calleeNames(unit);
      if (skip.has(e)) continue;
      const [what, hint] = ctx.symbols.agents.has(e.name)
        ? ["an agent", `call one of its methods: ${e.name}.method(…)`]
        : [ctx.symbols.fns.has(e.name) ? "a function" : "a builtin function", `call it: ${e.name}(…)`];
      ctx.report(messages.functionValue(e.name, what), e.span, { hints: [hint] });
    }
  }
}
