/**
 * §7 `x: T = v`: the value must be able to fit `T` (the runtime validates it and fails
 * with VALUE_INVALID otherwise). Structural, like the runtime: the seed's
 * `x: Result = tool name({ … })` re-validation is legal whenever the tool's result could
 * pass as a `Result`, and an error only when it never can. The same holds for a write
 * into a field or an item (`order.status = v`, `xs[0] = v`): the value must be able to
 * fit the field's (or item's) type, so a typed value stays what its type says; where it
 * only may fit, the node records the declared type for the run to check (`types/into-check-as.ts`).
 * `o.b = v` and `o["b"] = v` are one target.
 */
import type { AssignTarget, Expr } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { mismatch } from "../types/assignability";
import { reasonHint, typeMessages } from "../types/type-messages";
import { STRING, typeText, valueText, type Type } from "../types/type-model";
import { typesOf } from "../types/typed-program";
import { declaredInto, literalKey, provesFit } from "../types/into-check-as";
import { resolutionOf } from "../../language/name-resolution";

export function typesAssignments(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.assignMismatch;
  for (const s of typed.found.assigns) {
    if (!s.type) continue;
    const target = typed.table.ofRef(s.type);
    const value = typed.typeOf(s.value);
    const why = mismatch(value, target);
    if (why === undefined) continue;
    const [v, t] = [valueText(value, target), typeText(target)];
    ctx.report(m.text(s.name, t, v), s.value.span, { code: m.code, hints: reasonHint(why, value, target) });
  }
  const into = typeMessages.intoMismatch;
  const names = resolutionOf(ctx.program);
  const declaredAs = (name: Extract<Expr, { kind: "Name" }>) => {
    const target = names.targetOf(name);
    if (target?.kind === "param") return target.field.type;
    return target?.kind === "variable" && target.binding.kind === "Assign" ? target.binding.type : undefined;
  };
  for (const s of typed.found.intos) {
    const read = typed.typeOf(s.target);
    const target = declaredBySchema(s.target, typed.typeOf) ? read : widenLiterals(read);
    // A field the type lacks is the unknown-field rule's; one only ever null says nothing.
    if (target.kind === "null") continue;
    const value = typed.typeOf(s.value);
    const why = mismatch(value, target);
    if (why === undefined) {
      // It may fit: where the field's type is declared and not proved, the run checks it.
      const check = declaredInto(s.target, ctx.symbols, typed.typeOf, declaredAs);
      if (check && !provesFit(value, check)) s.checkAs = check;
      continue;
    }
    const key = literalKey(s.target);
    const what = typeof key === "string" ? `field '${key}'` : "the item";
    ctx.report(into.text(what, typeText(target), valueText(value, target)), s.value.span, { code: into.code, hints: reasonHint(why, value, target) });
  }
}

/**
 * Whether the target's type was declared (a field of a schema somewhere up its chain) or
 * only inferred from a literal: `o = { status: "new" }` infers the literal `"new"`, which
 * says what `o.status` holds now, not what it may hold later — so there a string target
 * takes any string, while a schema's enum field keeps its values.
 */
function declaredBySchema(target: AssignTarget, typeOf: (e: Expr) => Type): boolean {
  for (let e: Expr = target; e.kind === "Member" || e.kind === "Index"; e = e.object) {
    const owner = typeOf(e.object);
    if ((owner.kind === "union" ? owner.members : [owner]).some((m) => m.kind === "object" && m.name !== undefined)) return true;
  }
  return false;
}

function widenLiterals(t: Type): Type {
  if (t.kind === "string" && t.values) return STRING;
  if (t.kind === "union") return { ...t, members: t.members.map(widenLiterals) };
  return t;
}
