/**
 * What an agent's parameters reach in its declaration (issue #25), read alike by the
 * checker, the runtime and the editor: the `name when COND` items of its `tools` (a tool
 * offered only while COND holds) and the `{…}` segments of its `system` (filled with the
 * parameters for each `ask`).
 */
import type { AgentDecl, Expr, Span, TemplatePart } from "../syntax/ast";
import { AGENT_KEYS } from "./keys/agent-keys";
import { entryOf } from "./keys/key-spec";

export interface ToolCondition {
  tool: string;
  when: Expr;
  /** The tool name's span. */
  span: Span;
}

/** The `name when COND` items of an agent's `tools`, in order. */
export function toolConditionsOf(agent: AgentDecl): ToolCondition[] {
  const value = entryOf(AGENT_KEYS, agent.entries, "tools")?.value;
  if (value?.kind !== "List") return [];
  const out: ToolCondition[] = [];
  for (const item of value.items) if (item.kind === "Path" && item.when) out.push({ tool: item.parts.join("."), when: item.when, span: item.span });
  return out;
}

/** The parts of an agent's `system` when it holds a `{…}`; undefined when it is plain text (or absent). */
export function systemTemplateOf(agent: AgentDecl): TemplatePart[] | undefined {
  const value = entryOf(AGENT_KEYS, agent.entries, "system")?.value;
  return value?.kind === "Lit" ? value.template : undefined;
}
