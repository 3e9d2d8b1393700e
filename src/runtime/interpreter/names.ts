/**
 * Reading a name that is not (yet) a variable of the frame. A name the function assigns
 * somewhere reads as `null` until that assignment has run (spec §7, the `bonus` case).
 * Everything else was rejected by the checker; if it still happens (an unchecked program)
 * it is a RUNTIME_ERROR, never a JS crash, whose words say what the name is — from the
 * program's one name resolution (`language/name-resolution.ts`).
 */
import type { NameExpr } from "../../language/name-resolution";
import { errorAt } from "./runtime-errors";
import type { Frame } from "./runtime-context";
import type { Value } from "./values";

export function readName(f: Frame, e: NameExpr): Value {
  const name = e.name;
  if (f.assigned.has(name)) return null;
  const rt = f.rt;
  const target = rt.names.targetOf(e);
  let what: string | undefined;
  if (target?.kind === "agent") what = "an agent; call one of its methods: " + name + ".method(…)";
  else if (target?.kind === "fn" || target?.kind === "method" || target?.kind === "builtin") what = "a function; call it: " + name + "(…)";
  const message = what ? `'${name}' is ${what}, not a value` : `Unknown name '${name}'`;
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", message, e.span);
}
