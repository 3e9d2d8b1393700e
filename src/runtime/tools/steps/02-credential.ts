/**
 * Step 2 — credential check (TOOL_PERMISSION_DENIED). The variable is read on every call
 * (the host may set it late); unset and empty both count as missing. Only its name is
 * ever reported.
 */
import type { StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

export const credentialCheck: StepFactory = (rt) => ({
  name: "2 credential check",
  applies: (plan) => plan.tool.options.credential !== undefined,
  run(ctx, next) {
    const variable = ctx.plan.tool.options.credential!;
    if (!rt.env[variable]) throw toolErrors.missingCredential(ctx.plan.tool.name, variable);
    return next(ctx);
  },
});
