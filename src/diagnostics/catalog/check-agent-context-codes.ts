/**
 * E0262–E0269: the checker's rules about agents with parameters (issue #25, "Agents with
 * context"): how such an agent is called, its parameters read-only, what its `system` may
 * interpolate and what a `tools: [t when COND]` condition may say. One entry per
 * diagnostic, as in `check-statement-codes.ts` (joined in `check-codes.ts`); the rule that
 * reports them is `src/check/rules/agent-context.ts`.
 */
import type { WordedEntry } from "./catalog-entry";

export const CHECK_AGENT_CONTEXT_DIAGNOSTICS = {
  agentNeedsArguments: {
    code: "E0262",
    title: "agent with parameters called without them",
    text: (agent: string, method: string, params: string) =>
      `Agent '${agent}' takes parameters (${params}): call it as ${agent}(…).${method}(…).`,
    explanation:
      "An agent declared with parameters (`agent Support(user: User)`) is given them at each call: `Support(u).reply(text)`. `Support.reply(text)` would run it without its context, so it is rejected; the message shows the form to write.",
    example: 'schema User { name: string }\nagent Support(user: User) {\n  fn hello() -> string { "hi {user.name}" }\n}\nprint(Support.hello())',
  },
  agentTakesNoArguments: {
    code: "E0263",
    title: "agent without parameters called with arguments",
    text: (agent: string, method: string) => `Agent '${agent}' takes no parameters: call it as ${agent}.${method}(…).`,
    explanation:
      "Only an agent declared with parameters (`agent Name(p: T)`) is called as `Name(args).method(…)`; an agent without them keeps `Name.method(…)`.",
    example: 'agent Helper {\n  fn hello() -> string { "hi" }\n}\nprint(Helper("x").hello())',
  },
  agentCallWithoutMethod: {
    code: "E0264",
    title: "agent given parameters but no method called",
    text: (agent: string) => `'${agent}(…)' is not a value: call one of its methods, as ${agent}(…).method(…).`,
    explanation:
      "`Name(args)` gives an agent its parameters for one method call; it is not a value that can be stored, passed or printed. Call a method on it directly: `Support(u).reply(text)`.",
    example: 'schema User { name: string }\nagent Support(user: User) {\n  fn hello() -> string { "hi" }\n}\ns = Support({ name: "Ada" })',
  },
  agentParamAssigned: {
    code: "E0265",
    title: "agent parameter assigned",
    text: (param: string, agent: string) => `'${param}' is a parameter of agent '${agent}' and is read-only.`,
    explanation:
      "An agent's parameters are the context its caller gave it, the same for every method, `system` and `when` condition of the call: a method cannot assign one (nor take a parameter or bind a variable of the same name). Copy it into a variable of another name to change it.",
    example: 'schema User { name: string }\nagent Support(user: User) {\n  fn rename() { user = { name: "Bob" } }\n}',
  },
  systemInterpolation: {
    code: "E0266",
    title: "system prompt interpolates something that is not a parameter",
    text: (agent: string, what: string) => `The system prompt of agent '${agent}' interpolates ${what}, which is not a parameter of the agent.`,
    hints: {
      escape: "write \\{ for a literal brace",
      params: (names: string) => `the agent's parameters: ${names}`,
    },
    explanation:
      "An agent's `system` interpolates the agent's parameters: `{user.name}` — a parameter, or a field path over one. Anything else between braces (a variable, an expression, a field the schema does not have, a `{` left open) is an error rather than text sent to the model as written; `\\{` writes a literal brace.",
    example: 'agent A {\n  system: "Reply as { text: string }"\n}',
  },
  toolConditionNotBool: {
    code: "E0267",
    title: "tool condition is not a bool",
    text: (tool: string, type: string) => `The condition of tool '${tool}' must be a bool, not '${type}'.`,
    explanation:
      "`tools: [t when COND]` offers `t` only while `COND` holds, evaluated for each `ask` and each direct call: it must be a bool expression over the agent's parameters (`user.can_refund`, `user.plan == \"pro\"`).",
    example: 'schema User { name: string }\ntool refund(id: int) -> User {}\nagent A(user: User) {\n  tools: [refund when user.name]\n}',
  },
  toolConditionReads: {
    code: "E0268",
    title: "tool condition reads something other than the agent's parameters",
    text: (tool: string, what: string) => `The condition of tool '${tool}' may only read the agent's parameters, not ${what}.`,
    explanation:
      "A `when` condition is evaluated before each `ask` and each direct call, from the agent's parameters alone: it reads parameters, their fields, literals and builtins — no variables, functions, tools, queries or `ask`.",
    example: 'schema Out { ok: bool }\nfn is_admin() -> bool { false }\ntool refund(id: int) -> Out {}\nagent A {\n  tools: [refund when is_admin()]\n}',
  },
  whenOutsideAgentTools: {
    code: "E0269",
    title: "`when` outside an agent's tools",
    text: (key: string) => `'when' conditions are allowed only in an agent's 'tools', not in '${key}'.`,
    explanation: "`name when COND` makes a tool available while a condition on the agent's parameters holds; it means nothing in any other list.",
    example: 'agent A {\n  tool_contexts: [db when true]\n}',
  },
} as const satisfies Record<string, WordedEntry>;
