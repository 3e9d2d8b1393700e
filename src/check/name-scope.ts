/**
 * §7 name resolution: a name is valid in a code unit when it is a parameter or bound
 * anywhere in the same unit (a name assigned later reads as null until then), an agent, a
 * top-level fn, a builtin, or — in top-level code only — `args`. Top-level fns do not see
 * top-level variables: each unit has its own scope.
 */
import type { Expr } from "../syntax/ast";
import { isBuiltin } from "../language/builtins";
import type { CheckContext, CodeUnit } from "./context";
import { exprsOf } from "../language/walk";

export function isNameInScope(ctx: CheckContext, unit: CodeUnit, name: string): boolean {
  return (
    unit.locals.has(name) ||
    ctx.symbols.agents.has(name) ||
    ctx.symbols.fns.has(name) ||
    isBuiltin(name) ||
    (unit.kind === "top" && name === "args")
  );
}

/**
 * The Name nodes of a unit that a call resolves itself, not read as values: the `f` of
 * `f(…)` (a function, method or builtin) and the `Agent` of `Agent.m(…)`.
 */
export function calleeNames(unit: CodeUnit): Set<Expr> {
  const names = new Set<Expr>();
  for (const { callee } of exprsOf(unit.flat, "Call")) {
    if (callee.kind === "Name") names.add(callee);
    if (callee.kind === "Member" && callee.object.kind === "Name") names.add(callee.object);
  }
  return names;
}
