/**
 * §6–7 `ask`: only agent methods ask (top-level code and top-level fns have no model);
 * the agent must declare a `model`; `using tool x` must name a tool the agent lists in
 * `tools` (exact message) and a declared tool, query or command. `stream ask` asks for text:
 * its target is `string` (E0295).
 */
import { exprsOf } from "../../language/walk";
import { typeText } from "../../schema/type-text";
import type { CheckContext } from "../context";
import { exact, messages } from "../messages";
import { KIND_NOUN, MODEL_CALLABLE_KINDS, withArticle } from "../../language/declaration-nouns";
import { declHints } from "../suggestions";
import { addModelHint, addToToolsHint, askOutsideAgentHint } from "../first-hour-hints";

const MODEL_CALLABLE = new Set<string>(MODEL_CALLABLE_KINDS);

export function askPlacement(ctx: CheckContext): void {
  for (const unit of ctx.units) {
    for (const e of exprsOf(unit.flat, "Ask")) {
      const agent = unit.agent;
      if (!agent) ctx.report(messages.askOutsideAgent(), e.span, { hints: askOutsideAgentHint });
      else if (!ctx.entry(agent.entries, "model")) ctx.report(messages.askWithoutModel(agent.name), e.span, { hints: addModelHint(ctx, agent) });
      if (e.stream && !(e.target.kind === "PrimType" && e.target.name === "string")) ctx.report(messages.streamNotText(typeText(e.target)), e.target.span);
      const using = e.usingTool;
      if (!using) continue;
      const decl = ctx.symbols.byName.get(using.name);
      if (!decl) ctx.report(messages.unknownTool(using.name), using.span, { hints: declHints(ctx, MODEL_CALLABLE_KINDS, using.name) });
      else if (!MODEL_CALLABLE.has(decl.kind)) ctx.report(messages.wrongKind(using.name, withArticle(KIND_NOUN[decl.kind]), "tool"), using.span);
      if (agent && !ctx.agentTools(agent).has(using.name)) {
        ctx.report(exact.usingToolNotAllowed(agent.name, using.name), using.span, { hints: decl ? addToToolsHint(agent, using.name) : [] });
      }
    }
  }
}
