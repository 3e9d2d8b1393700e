/**
 * §7 operators on values that can never suit them, which the runtime fails on
 * (RUNTIME_ERROR): `- * / %` and unary `-` need numbers; `+` needs two numbers, two
 * arrays, or a string on either side (which concatenates anything). Comparisons and
 * `and`/`or`/`not` take any values (different types compare false, by the spec).
 */
import type { CheckContext } from "../context";
import { canBe } from "../types/assignability";
import { typeMessages } from "../types/type-messages";
import { typeText, type Type } from "../types/type-model";
import { typesOf } from "../types/typed-program";
import { forEachExpr } from "../walk";

const NUMBER: Type["kind"][] = ["int", "float", "never"];

function plusFits(l: Type, r: Type): boolean {
  if (canBe(l, ["string"]) || canBe(r, ["string"])) return true;
  return (canBe(l, NUMBER) && canBe(r, NUMBER)) || (canBe(l, ["array", "never"]) && canBe(r, ["array", "never"]));
}

export function typesOperators(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.operatorMismatch;
  for (const unit of ctx.units) {
    forEachExpr(unit.body, (e) => {
      if (e.kind === "Unary" && e.op === "-") {
        const t = typed.typeOf(e.operand);
        if (!canBe(t, NUMBER)) ctx.report(m.text("-", typeText(t)), e.span, { code: m.code });
        return;
      }
      if (e.kind !== "Binary") return;
      const [l, r] = [typed.typeOf(e.left), typed.typeOf(e.right)];
      const fits = e.op === "+" ? plusFits(l, r) : ["-", "*", "/", "%"].includes(e.op) ? canBe(l, NUMBER) && canBe(r, NUMBER) : true;
      if (!fits) ctx.report(m.text(e.op, typeText(l), typeText(r)), e.span, { code: m.code, hints: e.op === "+" ? [m.plusHint] : [] });
    });
  }
}
