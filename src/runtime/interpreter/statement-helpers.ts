/**
 * The parts of statement execution shared by the synchronous and asynchronous executors:
 * assignment (with the typed form's validation) and what `for` may iterate.
 */
import type { Span, Stmt } from "../../syntax/ast";
import { errorAt } from "./runtime-errors";
import type { Frame, Runtime } from "./runtime-context";
import { validateValue } from "./validate-value";
import { isObjectValue, typeName, type Value } from "./values";

type AssignStmt = Extract<Stmt, { kind: "Assign" }>;

/** `x = v`, or `x: T = v` validated against T (VALUE_INVALID; soft issues warn). */
export function assign(f: Frame, s: AssignStmt, value: Value): void {
  const v = s.type ? validateValue(f.rt, s.type, value, "output", s.name, s.span) : value;
  f.vars.set(s.name, v);
}

/** `for x in v`: v must be an array (objects are an error that points to `keys()`). */
export function forItems(rt: Runtime, v: Value, span: Span): readonly Value[] {
  if (Array.isArray(v)) return v;
  const hint = isObjectValue(v) ? "; iterate over keys(obj) to visit an object's fields" : "";
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Cannot iterate over ${typeName(v)}: 'for' needs an array${hint}`, span);
}
