/**
 * §7 name resolution: a name is valid in a code unit when it is a parameter or bound
 * anywhere in the same unit (a name assigned later reads as null until then), an agent, a
 * top-level fn, a builtin, or — in top-level code only — `args`. Top-level fns do not see
 * top-level variables: each unit has its own scope.
 */
import { isBuiltin } from "./builtins";
import type { CheckContext, CodeUnit } from "./context";

export function isNameInScope(ctx: CheckContext, unit: CodeUnit, name: string): boolean {
  return (
    unit.locals.has(name) ||
    ctx.symbols.agents.has(name) ||
    ctx.symbols.fns.has(name) ||
    isBuiltin(name) ||
    (unit.kind === "top" && name === "args")
  );
}
