/**
 * Advice under the messages people meet in their first hour with Luma: not "did you
 * mean" (that is `suggestions.ts`) but the fix, in the program's own names — which block a
 * key belongs to, which list a tool must join, which key a write tool is missing. Each
 * hint only says what the rule already knows; none guesses at intent.
 */
import type { AgentDecl, ToolDecl } from "../syntax/ast";
import { KEY_BLOCKS, type KeyTable } from "../language/key-blocks";
import type { CheckContext } from "./context";

/** An unknown key that another block accepts: `temperature` in an agent is a model key. */
export function keyElsewhereHint(key: string, table: KeyTable): string[] {
  const home = KEY_BLOCKS.find((b) => b.table !== table && Object.hasOwn(b.table, key));
  return home ? [`\`${key}\` is ${home.noun}; it does not apply here`] : [];
}

/** A tool an agent's method calls (directly or by `using tool`) but its `tools` lacks. */
export const addToToolsHint = (agent: AgentDecl, tool: string): string[] => [
  `add \`${tool}\` to the \`tools\` of agent '${agent.name}'`,
];

/** `ask` in an agent with no model: name the model to add when the program declares one. */
export function addModelHint(ctx: CheckContext, agent: AgentDecl): string[] {
  const [model] = ctx.symbols.models.keys();
  return [model ? `add \`model: ${model}\` to agent '${agent.name}'` : `declare a model and add \`model: M\` to agent '${agent.name}'`];
}

export const askOutsideAgentHint: string[] = ["move it into a method (`fn`) of an agent that has a `model`"];

/** A write or idempotent tool without `idempotency_key`: the key names a parameter. */
export function idempotencyKeyHint(tool: ToolDecl, needsIdempotent: boolean): string[] {
  const param = tool.params[0]?.name ?? "request_id";
  const key = `\`idempotency_key: ${param}\` (the parameter that identifies a request)`;
  return [needsIdempotent ? `set \`idempotent: true\` and ${key}` : `add ${key}`];
}
