/**
 * E1101–E1110: the checker's rules about many agents (issue #27, docs/language/multi-agent.md):
 * a method of another agent listed in an agent's `tools` (an agent as a tool). One entry per
 * diagnostic, as in `check-agent-context-codes.ts` (joined in `check-codes.ts`); the rule that
 * reports them is `src/check/agent-tool-items.ts`. E1104–E1110 are reserved for the rest of
 * the issue (handoffs, `parallel`).
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
    title: "agent with parameters listed as a tool without them",
    text: (agent: string, method: string) => `Agent '${agent}' takes parameters: it cannot be listed in tools as ${agent}.${method}.`,
    explanation:
      "A model calling `Agent_method` gives only the method's arguments; an agent declared with parameters (`agent Refunds(user: User)`) would run without its context, so it is rejected. List an agent without parameters, or call the agent from a method of your own that gives it its context.",
    example: "schema User { name: string }\nagent Refunds(user: User) {\n  fn handle(id: string) -> string { id }\n}\nagent Triage {\n  tools: [Refunds.handle]\n}",
  },
} as const satisfies Record<string, WordedEntry>;
