/**
 * What an agent's parameters reach in its declaration (issue #25), read alike by the
 * checker, the runtime and the editor: the `name when COND` items of its `tools` (a tool
 * offered only while COND holds) and the `{…}` segments of its `system` (filled with the
 * parameters for each `ask`); and the `Refunds(user).handle` items (a method of an agent with
 * parameters offered as a tool, its arguments read from the listing agent's parameters).
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

/** A `Refunds(user).handle` item of an agent's `tools` (issue #27 §1). */
export interface AgentToolArguments {
  /** `Refunds.handle`: how the runtime's tool list names it. */
  tool: string;
  agent: string;
  args: readonly Expr[];
  span: Span;
}

/** The `Agent(args).method` items of an agent's `tools`, in order. */
export function agentToolArgumentsOf(agent: AgentDecl): AgentToolArguments[] {
  const value = entryOf(AGENT_KEYS, agent.entries, "tools")?.value;
  if (value?.kind !== "List") return [];
  const out: AgentToolArguments[] = [];
  for (const item of value.items) if (item.kind === "Path" && item.args) out.push({ tool: item.parts.join("."), agent: item.parts[0], args: item.args, span: item.span });
  return out;
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
