/**
 * §6–7: an agent with a `model` offers its `tools` to that model, and providers only accept
 * tool names of at most 64 characters (`^[A-Za-z0-9_-]{1,64}$` at Anthropic and OpenAI; Luma
 * identifiers already fit the character set) — caught here rather than as a 400 mid-run.
 */
import type { CheckContext } from "../context";
import { messages } from "../messages";

export const MAX_MODEL_TOOL_NAME = 64;

export function modelToolNames(ctx: CheckContext): void {
  for (const agent of ctx.program.decls) {
    if (agent.kind !== "Agent" || !ctx.entry(agent.entries, "model")) continue;
    const tools = ctx.entry(agent.entries, "tools")?.value;
    if (tools?.kind !== "List") continue;
    for (const item of tools.items) {
      const name = item.kind === "Path" && item.parts.length === 1 ? item.parts[0] : undefined;
      if (name !== undefined && name.length > MAX_MODEL_TOOL_NAME) ctx.report(messages.toolNameTooLong(agent.name, name, MAX_MODEL_TOOL_NAME), item.span);
    }
  }
}
