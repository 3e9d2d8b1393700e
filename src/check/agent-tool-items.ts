/**
 * An agent's method listed in another agent's `tools` (issue #27 §1, docs/language/multi-agent.md):
 * `tools: [lookup_order, Refunds.handle]`. The item names a declared agent and one of its
 * methods; an agent with parameters is listed with its arguments, `Refunds(user).handle` (a
 * model's call gives only the method's arguments; the agent's come from the listing agent's
 * parameters — their count, types and what they read: `rules/agent-context.ts`), and one
 * without is listed bare (E1110). The model is offered it as the tool `Refunds_handle`. An agent may list its own methods or
 * form a cycle with another: the run bounds the nesting (`max_agent_depth`), not the checker.
 */
import { agentToolName } from "../language/model-tool-names";
import type { ConfigValue } from "../syntax/ast";
import type { CheckContext } from "./context";
import { messages } from "./messages";
import { declHints } from "./suggestions";

/** Judges `Agent.method` (a Path of two parts); returns the model-facing name, or undefined when reported. */
export function checkAgentToolItem(item: Extract<ConfigValue, { kind: "Path" }>, ctx: CheckContext): string | undefined {
  const itemText = item.parts.join(".");
  if (item.parts.length !== 2) {
    ctx.report(messages.agentToolNotAgent(item.parts[0], itemText), item.span);
    return undefined;
  }
  const [agentName, method] = item.parts;
  const decl = ctx.symbols.byName.get(agentName);
  if (!decl || decl.kind !== "Agent") {
    ctx.report(messages.agentToolNotAgent(agentName, itemText), item.span, { hints: declHints(ctx, ["Agent"], agentName) });
    return undefined;
  }
  if (!decl.methods.some((m) => m.name === method)) {
    ctx.report(messages.agentToolNoMethod(agentName, method), item.span);
    return undefined;
  }
  const takesParams = (decl.params?.length ?? 0) > 0;
  if (takesParams && !item.args) {
    ctx.report(messages.agentToolNeedsArguments(agentName, method), item.span);
    return undefined;
  }
  if (!takesParams && item.args) {
    ctx.report(messages.agentToolTakesNoArguments(agentName, method), item.span);
    return undefined;
  }
  return agentToolName(agentName, method);
}
