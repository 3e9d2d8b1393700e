/**
 * Step 3 — scope allowlist (TOOL_PERMISSION_DENIED). Decided per (agent, tool) when the
 * plan is built, so the step is in the chain only when the answer is "denied".
 */
import type { StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

export const scopeAllowlist: StepFactory = () => ({
  name: "3 scope allowlist",
  applies: (plan) => plan.scopeDenied,
  run(ctx) {
    throw toolErrors.scopeDenied(ctx.plan.tool.name, ctx.plan.tool.options.scope!);
  },
});
