/**
 * Reading a name that is not (yet) a variable of the frame. A name the function assigns
 * somewhere reads as `null` until that assignment has run (spec §7, the `bonus` case).
 * Everything else was rejected by the checker; if it still happens (an unchecked program)
 * it is a RUNTIME_ERROR, never a JS crash.
 */
import type { Span } from "../../syntax/ast";
import { BUILTINS } from "./builtins";
import { errorAt } from "./runtime-errors";
import type { Frame } from "./runtime-context";
import type { Value } from "./values";

export function readName(f: Frame, name: string, span: Span): Value {
  if (f.assigned.has(name)) return null;
  const rt = f.rt;
  let what: string | undefined;
  if (rt.agents.has(name)) what = "an agent; call one of its methods: " + name + ".method(…)";
  else if (rt.fns.has(name) || f.agent?.methods.has(name) || Object.hasOwn(BUILTINS, name)) what = "a function; call it: " + name + "(…)";
  const message = what ? `'${name}' is ${what}, not a value` : `Unknown name '${name}'`;
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", message, span);
}
