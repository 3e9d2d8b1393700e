/**
 * E1101–E1110: the checker's rules about many agents (issue #27, docs/language/multi-agent.md),
 * one entry per diagnostic, as in `check-agent-context-codes.ts` (joined in `check-codes.ts`):
 *
 *   E1101–E1103, E1110  a method of another agent in an agent's `tools` (`Refunds.handle`,
 *                       `Refunds(user).handle`): `src/check/agent-tool-items.ts`;
 *   E1109               what the arguments of `Refunds(user).handle` read: `check/rules/agent-context.ts`;
 *   E1104–E1108         an agent's `handoffs`: `check/value-kind-checks.ts` (the names) and
 *                       `check/rules/agent-handoffs.ts`.
 */
import type { WordedEntry } from "./catalog-entry";

export const CHECK_MULTI_AGENT_DIAGNOSTICS = {
  agentToolNotAgent: {
    code: "E1101",
    title: "tools item names a method of something that is not an agent",
    text: (name: string, item: string) => `'${item}' in tools: '${name}' is not an agent (only an agent's method may be listed as Agent.method).`,
    explanation:
      "An agent's `tools` may list a method of another agent, `Refunds.handle`: the model is offered it as the tool `Refunds_handle`. The part before the dot must name a declared agent.",
    example: "tool lookup(id: string) -> string { handler: \"./t.ts#lookup\" }\nagent A {\n  tools: [lookup.run]\n}",
  },
  agentToolNoMethod: {
    code: "E1102",
    title: "tools item names a method the agent does not have",
    text: (agent: string, method: string) => `Agent '${agent}' has no method '${method}' to list in tools.`,
    explanation:
      "`Agent.method` in `tools` offers that method of that agent to the model; the agent must declare `fn method(…)`.",
    example: "agent Refunds {\n  fn handle(id: string) -> string { id }\n}\nagent Triage {\n  tools: [Refunds.refund]\n}",
  },
  agentToolNeedsArguments: {
    code: "E1103",
    title: "agent with parameters listed as a tool without its arguments",
    text: (agent: string, method: string) => `Agent '${agent}' takes parameters: list it in tools with its arguments, as ${agent}(…).${method}.`,
    explanation:
      "A model calling `Agent_method` gives only the method's arguments; an agent declared with parameters (`agent Refunds(user: User)`) needs its context too. Write its arguments in the listing: `tools: [Refunds(user).handle]` — read from the listing agent's parameters (or constants) at each call, counted and typed against the agent's parameters as a call `Refunds(user).handle(…)` would be.",
    example: "schema User { name: string }\nagent Refunds(user: User) {\n  fn handle(id: string) -> string { id }\n}\nagent Triage {\n  tools: [Refunds.handle]\n}",
  },
  agentToolArgumentReads: {
    code: "E1109",
    title: "an agent tool's argument reads something other than the agent's parameters",
    text: (item: string, what: string) => `The arguments of '${item}' in tools may read only the agent's parameters, not ${what}.`,
    explanation:
      "In `tools: [Refunds(user).handle]` the arguments are evaluated each time the model calls the tool, outside any method: they may read the listing agent's parameters (and constants and builtins), not variables, functions, tools or `ask`.",
    example: "schema User { name: string }\nagent Refunds(user: User) {\n  fn handle(id: string) -> string { id }\n}\nagent Triage(user: User) {\n  tools: [Refunds(lookup(user)).handle]\n}\nfn lookup(u: User) -> User { u }",
  },
  agentToolTakesNoArguments: {
    code: "E1110",
    title: "agent without parameters listed as a tool with arguments",
    text: (agent: string, method: string) => `Agent '${agent}' takes no parameters: list it in tools as ${agent}.${method}.`,
    explanation: "`Agent(args).method` in `tools` gives an agent with parameters its arguments; an agent declared without parameters takes none. List it bare: `tools: [Refunds.handle]`.",
    example: "agent Refunds {\n  fn handle(id: string) -> string { id }\n}\nagent Triage {\n  tools: [Refunds(1).handle]\n}",
  },
  handoffNotAgent: {
    code: "E1104",
    title: "handoffs item is not an agent",
    text: (name: string, what: string) => `'${name}' in handoffs is not an agent (${what}).`,
    explanation:
      "`handoffs: [Refunds, Billing]` lists the agents the model may hand the conversation over to (it is offered `transfer_to_Refunds`, …). Each item must be the bare name of a declared agent.",
    example: "model M { provider: \"openai\"  name: \"gpt-5.4-mini\" }\nagent Triage {\n  model: M\n  handoffs: [Refund]\n}",
  },
  handoffToSelf: {
    code: "E1105",
    title: "agent hands off to itself",
    text: (agent: string) => `Agent '${agent}' lists itself in handoffs: a transfer to itself would change nothing.`,
    explanation: "A handoff gives the conversation to another agent, with its own system, model and tools. An agent transferring to itself would only spend a handoff; remove it from the list.",
    example: "model M { provider: \"openai\"  name: \"gpt-5.4-mini\" }\nagent Triage {\n  model: M\n  handoffs: [Triage]\n}",
  },
  handoffTargetNoModel: {
    code: "E1106",
    title: "handoff target has no model",
    text: (target: string, agent: string) => `Agent '${target}' in the handoffs of '${agent}' has no model: it could not continue the ask.`,
    explanation:
      "On a transfer the target agent continues the same `ask` with its own model, system and tools. An agent without `model` cannot be asked anything, so it cannot take a conversation over: give it a `model`.",
    example: "model M { provider: \"openai\"  name: \"gpt-5.4-mini\" }\nagent Refunds {\n  system: \"You issue refunds.\"\n}\nagent Triage {\n  model: M\n  handoffs: [Refunds]\n}",
  },
  handoffTargetHasParams: {
    code: "E1107",
    title: "handoff target takes parameters",
    text: (target: string, agent: string) => `Agent '${target}' takes parameters: it cannot be in the handoffs of '${agent}' (a transfer gives it no arguments).`,
    explanation:
      "A transfer (`transfer_to_X`) takes no arguments, so an agent declared with parameters (`agent Refunds(user: User)`) would continue the conversation without the context its `system` and `when` conditions read. List an agent without parameters.",
    example: "model M { provider: \"openai\"  name: \"gpt-5.4-mini\" }\nschema User { name: string }\nagent Refunds(user: User) {\n  model: M\n}\nagent Triage {\n  model: M\n  handoffs: [Refunds]\n}",
  },
  handoffToolClash: {
    code: "E1108",
    title: "transfer tool name clashes with a listed tool",
    text: (tool: string, agent: string) => `Agent '${agent}' lists a tool named '${tool}', the name of the transfer its handoffs offer.`,
    explanation:
      "Each agent in `handoffs` is offered to the model as the tool `transfer_to_<Agent>`. A tool of the agent with that same name would make the model's call ambiguous: rename the tool.",
    example: "model M { provider: \"openai\"  name: \"gpt-5.4-mini\" }\ntool transfer_to_Refunds(id: string) -> string { handler: \"./t.ts#t\" }\nagent Refunds {\n  model: M\n}\nagent Triage {\n  model: M\n  tools: [transfer_to_Refunds]\n  handoffs: [Refunds]\n}",
  },
} as const satisfies Record<string, WordedEntry>;
