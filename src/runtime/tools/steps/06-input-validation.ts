/**
 * Step 6 — input validation (TOOL_INPUT_INVALID). Every issue is hard on an input (spec §3
 * `@severity`). From here on the call carries the validated value: defaults filled in,
 * tagged-union discriminators written.
 */
import type { StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

export const inputValidation: StepFactory = (rt) => ({
  name: "6 input validation",
  applies: () => true,
  run(ctx, next) {
    const tool = ctx.plan.tool;
    const r = rt.schemas.validate(tool.inputTarget, ctx.input, "input", tool.inputRoot);
    const issues = r.hard.length > 0 ? r.hard : r.soft;
    if (!r.ok || issues.length > 0) throw toolErrors.inputInvalid(tool.inputRoot, issues.map((i) => i.message), issues);
    ctx.input = r.value;
    return next(ctx);
  },
});
