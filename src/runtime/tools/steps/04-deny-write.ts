/**
 * Step 4 — tool_policy deny_write (TOOL_PERMISSION_DENIED): an agent with this policy never
 * runs a tool declared `side_effects: "write"`. Decided when the plan is built.
 */
import type { StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

export const denyWrite: StepFactory = () => ({
  name: "4 tool_policy deny_write",
  applies: (plan) => plan.writeDenied,
  run(ctx) {
    throw toolErrors.writeDenied(ctx.plan.tool.name, ctx.plan.agent.name ?? "");
  },
});
