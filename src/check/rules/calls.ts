/**
 * §6–7 calls: `f(…)` names a builtin, a top-level fn or (inside an agent) a sibling
 * method; `Agent.m(…)` names an existing method of a declared agent; nothing else is
 * callable. The argument count must fit the callee (optional and defaulted parameters
 * may be left out). An unknown function or method gets the closest existing name as a hint.
 */
import type { Expr, Field, FnDecl } from "../../syntax/ast";
import { BUILTINS, arityText, type Arity } from "../../language/builtins";
import { isInScope } from "../../language/name-resolution";
import { exprsOf } from "../../language/walk";
import type { CheckContext, CodeUnit } from "../context";
import { messages, phrases } from "../messages";
import { agentHints, functionHints, methodHints } from "../suggestions";

const isRequired = (p: Field) => !p.optional && !p.annotations.some((a) => a.name === "default");
const fnArity = (fn: FnDecl): Arity => ({ min: fn.params.filter(isRequired).length, max: fn.params.length });

type Callee = { what: string; arity: Arity } | undefined;

/** The callee as the program's name resolution resolved it (a sibling method, a fn, a builtin, an agent's method). */
function resolveCallee(ctx: CheckContext, unit: CodeUnit, callee: Expr): Callee {
  if (callee.kind === "Name") {
    const name = callee.name;
    const target = unit.call(name);
    if (target.kind === "method") return { what: phrases.callee.method(target.agent.name, name), arity: fnArity(target.decl) };
    if (target.kind === "fn") return { what: phrases.callee.fn(name), arity: fnArity(target.decl) };
    if (target.kind === "builtin") return { what: phrases.callee.builtin(name), arity: BUILTINS[target.name] };
    if (isInScope(target)) ctx.report(messages.notCallable(), callee.span);
    else ctx.report(messages.unknownFunction(name), callee.span, { hints: functionHints(ctx, unit, name) });
    return undefined;
  }
  if (callee.kind === "Member" && callee.object.kind === "Name") {
    const agentName = callee.object.name;
    const target = unit.callObject(agentName);
    if (target.kind !== "agent") {
      if (isInScope(target)) ctx.report(messages.notCallable(), callee.span);
      else ctx.report(messages.unknownAgent(agentName), callee.object.span, { hints: agentHints(ctx, agentName, callee.property) });
      return undefined;
    }
    const method = ctx.agentMethods(target.decl).get(callee.property);
    if (method) return { what: phrases.callee.method(agentName, callee.property), arity: fnArity(method) };
    ctx.report(messages.unknownMethod(agentName, callee.property), callee.span, { hints: methodHints(ctx, agentName, callee.property) });
    return undefined;
  }
  ctx.report(messages.notCallable(), callee.span);
  return undefined;
}

export function calls(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    for (const e of exprsOf(unit.flat, "Call")) {
      const callee = resolveCallee(ctx, unit, e.callee);
      if (callee && (e.args.length < callee.arity.min || e.args.length > callee.arity.max)) {
        ctx.report(messages.arity(callee.what, arityText(callee.arity), e.args.length), e.span);
      }
    }
  }
}
