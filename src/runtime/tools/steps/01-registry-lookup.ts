/**
 * Step 1 — registry lookup (TOOL_NOT_FOUND). The handler is looked up on the tool's first
 * call and kept on its plan; a name the program does not declare never reaches the registry.
 */
import type { StepFactory } from "./step";
import { bindHandler } from "./tool-plan";
import { toolErrors } from "./tool-errors";
import { isClientTool } from "./client-answer";

export const registryLookup: StepFactory = (rt) => ({
  name: "1 registry lookup",
  // A client tool has no host handler: the caller answers it (client-answer.ts).
  applies: (plan) => !isClientTool(plan.tool.options),
  run(ctx, next) {
    const tool = ctx.plan.tool;
    if (tool.handler === undefined) {
      if (tool.decl === undefined) throw toolErrors.notDeclared(tool.name);
      const handler = rt.registry.handler(tool.name);
      if (typeof handler !== "function") throw toolErrors.notRegistered(tool.name);
      bindHandler(tool, handler);
    }
    return next(ctx);
  },
});
