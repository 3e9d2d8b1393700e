/**
 * §7 operators on values that can never suit them, which the runtime fails on
 * (RUNTIME_ERROR): `- * / %` and unary `-` need numbers; `+` needs two numbers, two
 * arrays, or a string on either side (which concatenates anything). Comparisons and
 * `and`/`or`/`not` take any values (different types compare false, by the spec).
 */
import type { CheckContext } from "../context";
import { canBe } from "../types/assignability";
import { typeMessages } from "../types/type-messages";
import { valueText, type Type } from "../types/type-model";
import { typesOf } from "../types/typed-program";

const NUMBER: Type["kind"][] = ["int", "float", "never"];
const ARITHMETIC = new Set(["-", "*", "/", "%"]);

function plusFits(l: Type, r: Type): boolean {
  if (canBe(l, ["string"]) || canBe(r, ["string"])) return true;
  return (canBe(l, NUMBER) && canBe(r, NUMBER)) || (canBe(l, ["array", "never"]) && canBe(r, ["array", "never"]));
}

export function typesOperators(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const m = typeMessages.operatorMismatch;
  for (const e of typed.found.operators) {
    if (e.kind === "Unary") {
      const t = typed.typeOf(e.operand);
      if (e.op === "-" && !canBe(t, NUMBER)) ctx.report(m.text("-", valueText(t)), e.span, { code: m.code });
      continue;
    }
    if (e.op !== "+" && !ARITHMETIC.has(e.op)) continue;
    const [l, r] = [typed.typeOf(e.left), typed.typeOf(e.right)];
    const fits = e.op === "+" ? plusFits(l, r) : canBe(l, NUMBER) && canBe(r, NUMBER);
    if (!fits) ctx.report(m.text(e.op, valueText(l), valueText(r)), e.span, { code: m.code, hints: e.op === "+" ? [m.hints.plus] : [] });
  }
}
