/**
 * Handoffs (issue #27 §2, docs/language/multi-agent.md § Handoffs): `handoffs: [Refunds]`
 * offers the model `transfer_to_Refunds`, after which Refunds continues the same `ask` with
 * its own model, system and tools. The names themselves (declared agents, each once, E1104)
 * are judged with the key's value kind (`value-kind-checks.ts`); this rule judges what a
 * target must be to take a conversation over:
 *
 *   E1105  not the agent itself (a transfer would change nothing but spend a handoff);
 *   E1106  an agent with a `model` (it is asked the rest of the `ask`);
 *   E1107  an agent without parameters (a transfer carries no arguments for its `system`
 *          and `when` conditions);
 *   E1108  a transfer name that is not already a tool the agent lists;
 *   E0248  a transfer name providers accept (at most 64 characters, as any offered tool's).
 *
 * The target type needs no rule: the target answers the `ask`'s own target type, whatever
 * its methods return. Cycles (A → B → A) are allowed: `max_handoffs` bounds them at run time.
 */
import { MAX_MODEL_TOOL_NAME, transferToolName } from "../../language/model-tool-names";
import type { AgentDecl } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";

export function agentHandoffs(ctx: CheckContext): void {
  for (const agent of ctx.program.decls) {
    if (agent.kind !== "Agent") continue;
    const value = ctx.entry(agent.entries, "handoffs")?.value;
    if (value?.kind !== "List") continue;
    const listed = listedToolNames(ctx, agent);
    for (const item of value.items) {
      if (item.kind !== "Path" || item.parts.length !== 1) continue;
      const name = item.parts[0];
      const target = ctx.symbols.agents.get(name);
      if (!target) continue;
      if (target === agent) ctx.report(messages.handoffToSelf(agent.name), item.span);
      else if (!ctx.entry(target.entries, "model")) ctx.report(messages.handoffTargetNoModel(name, agent.name), item.span);
      else if ((target.params?.length ?? 0) > 0) ctx.report(messages.handoffTargetHasParams(name, agent.name), item.span);
      else if (listed.has(transferToolName(name))) ctx.report(messages.handoffToolClash(transferToolName(name), agent.name), item.span);
      else if (transferToolName(name).length > MAX_MODEL_TOOL_NAME) ctx.report(messages.toolNameTooLong(agent.name, transferToolName(name), MAX_MODEL_TOOL_NAME), item.span);
    }
  }
}

/** The bare names in the agent's `tools` (a `t when COND` item names t). */
function listedToolNames(ctx: CheckContext, agent: AgentDecl): Set<string> {
  const out = new Set<string>();
  const tools = ctx.entry(agent.entries, "tools")?.value;
  if (tools?.kind !== "List") return out;
  for (const item of tools.items) if (item.kind === "Path" && item.parts.length === 1) out.add(item.parts[0]);
  return out;
}
