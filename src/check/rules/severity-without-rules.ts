/**
 * §3 `@severity` says how a field's *rules* fail; on a field with no rule (`@range`,
 * `@length`, `@pattern`, …) it changes nothing. Most likely the rule it was meant for is
 * missing, so it is a warning, not an error.
 */
import type { CheckContext } from "../context";
import { forEachDeclaredField } from "../declared-fields";
import { messages } from "../messages";

const NOT_RULES = new Set(["severity", "desc", "default"]);

export function severityWithoutRules(ctx: CheckContext): void {
  forEachDeclaredField(ctx.program, (field) => {
    const severity = field.annotations.find((a) => a.name === "severity");
    // An invalid value is the annotations rule's error already; one message per mistake.
    const valid = severity?.args.length === 1 && (severity.args[0].value === "hard" || severity.args[0].value === "soft");
    if (severity && valid && !field.annotations.some((a) => !NOT_RULES.has(a.name))) {
      ctx.warn(messages.severityWithoutRules(field.name), severity.span);
    }
  });
}
