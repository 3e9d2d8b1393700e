/**
 * Lambdas (issue #28 §2): `(x) => e` only as the second argument of a builtin that takes
 * one (E0319 elsewhere), such a builtin always called with one (E0321), and a lambda's
 * value of the kind its builtin needs (E0322): a test for `filter`/`find`/`any`/`all` (a
 * bool; maybe-null is a presence test, as in `if`), a number or a string for `sort_by`.
 * A user fn of one of those names shadows the builtin: it takes no lambda.
 */
import { takesLambda } from "../../language/builtins";
import type { CheckContext } from "../context";
import { canBe } from "../types/assignability";
import { typeMessages } from "../types/type-messages";
import { typeText, type Type } from "../types/type-model";
import { typesOf } from "../types/typed-program";

/** What each builtin's lambda must be able to give, and how the message says it. */
const RESULTS: Readonly<Record<string, { kinds: Type["kind"][]; text: string }>> = {
  filter: { kinds: ["bool", "null", "never"], text: "a bool" },
  find: { kinds: ["bool", "null", "never"], text: "a bool" },
  any: { kinds: ["bool", "null", "never"], text: "a bool" },
  all: { kinds: ["bool", "null", "never"], text: "a bool" },
  sort_by: { kinds: ["int", "float", "string", "never"], text: "a number or a string" },
};

export function lambdas(ctx: CheckContext): void {
  const typed = typesOf(ctx);
  const placement = typeMessages.lambdaPlacement;
  const expected = typeMessages.lambdaExpected;
  const result = typeMessages.lambdaResult;
  for (const e of typed.found.calls) {
    const name = e.callee.kind === "Name" ? e.callee.name : e.callee.kind === "Member" ? e.callee.property : "";
    const builtin = e.callee.kind === "Name" && !typed.callees.has(e) && takesLambda(name);
    const shadowed = typed.callees.has(e) && takesLambda(name);
    e.args.forEach((arg, i) => {
      if (arg.kind === "Lambda" && !(builtin && i === 1)) ctx.report(placement.text(name || "this call", shadowed), arg.span, { code: placement.code });
    });
    if (!builtin || e.args.length !== 2) continue;
    const lambda = e.args[1];
    if (lambda.kind !== "Lambda") {
      ctx.report(expected.text(name), lambda.span, { code: expected.code });
      continue;
    }
    const rule = Object.hasOwn(RESULTS, name) ? RESULTS[name] : undefined;
    const t = typed.typeOf(lambda.body);
    if (rule && !canBe(t, rule.kinds)) ctx.report(result.text(name, rule.text, typeText(t)), lambda.body.span, { code: result.code });
  }
}
