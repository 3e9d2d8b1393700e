/**
 * §6–7: an agent with a `model` offers its `tools` to that model, and providers only accept
 * tool names of at most 64 characters (`MAX_MODEL_TOOL_NAME`; Luma identifiers already fit
 * the character set) — caught here rather than as a 400 mid-run. A tool is offered by its
 * name; another agent's method (`Refunds.handle`, issue #27 §1) by the name it is offered as
 * (`Refunds_handle`), judged once the item names a declared agent's method (the other faults
 * of such an item are `agent-tool-items.ts`'s). Transfer names: `agent-handoffs.ts`.
 */
import { agentToolName, MAX_MODEL_TOOL_NAME } from "../../language/model-tool-names";
import type { ConfigValue } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";

export function modelToolNames(ctx: CheckContext): void {
  for (const agent of ctx.program.decls) {
    if (agent.kind !== "Agent" || !ctx.entry(agent.entries, "model")) continue;
    const tools = ctx.entry(agent.entries, "tools")?.value;
    if (tools?.kind !== "List") continue;
    for (const item of tools.items) {
      const name = offeredName(ctx, item);
      if (name !== undefined && name.length > MAX_MODEL_TOOL_NAME) ctx.report(messages.toolNameTooLong(agent.name, name, MAX_MODEL_TOOL_NAME), item.span);
    }
  }
}

/** The name a `tools` item is offered to the model as: `t` as `t`, `Refunds.handle` as `Refunds_handle`. */
function offeredName(ctx: CheckContext, item: ConfigValue): string | undefined {
  if (item.kind !== "Path") return undefined;
  if (item.parts.length === 1) return item.parts[0];
  if (item.parts.length !== 2) return undefined;
  const [agentName, method] = item.parts;
  const target = ctx.symbols.byName.get(agentName);
  if (target?.kind !== "Agent" || !target.methods.some((m) => m.name === method)) return undefined;
  return agentToolName(agentName, method);
}
