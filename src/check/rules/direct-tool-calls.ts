/**
 * §7 direct tool calls: `tool x(…)` names a declared tool; inside an agent method the tool
 * must also be in the agent's `tools` (exact message). Top-level code and top-level fns
 * may call any declared tool.
 */
import { exprsOf } from "../../language/walk";
import type { CheckContext } from "../context";
import { exact, messages } from "../messages";
import { KIND_NOUN, withArticle } from "../../language/declaration-nouns";
import { declHints } from "../suggestions";
import { addToToolsHint } from "../first-hour-hints";

export function directToolCalls(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    for (const e of exprsOf(unit.flat, "ToolCall")) {
      const decl = ctx.symbols.byName.get(e.tool);
      if (!decl) ctx.report(messages.unknownTool(e.tool), e.toolSpan, { hints: declHints(ctx, ["Tool"], e.tool) });
      else if (decl.kind !== "Tool") ctx.report(messages.wrongKind(e.tool, withArticle(KIND_NOUN[decl.kind]), "tool"), e.toolSpan);
      const agent = unit.agent;
      if (agent && !ctx.agentTools(agent).has(e.tool)) {
        ctx.report(exact.directToolNotAllowed(agent.name, e.tool), e.toolSpan, { hints: decl ? addToToolsHint(agent, e.tool) : [] });
      }
    }
  }
}
