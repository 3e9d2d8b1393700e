/**
 * E0233–E0261, E0295–E0297: the checker's rules about code — names, calls, statements, `ask`, literals
 * and the tools an agent may call. One entry per diagnostic: its code, title, the text
 * builder the rule reports with (typed parameters: `messages.unknownTool(name)` in
 * `src/check/messages.ts` is this entry's `text`), the explanation and the example `luma
 * explain CODE` prints. `exact: true` marks the texts the spec words byte for byte.
 *
 * Keyed by the builder's name; the rules that report them live in `src/check/rules/`.
 */
import type { WordedEntry } from "./catalog-entry";

export const CHECK_STATEMENT_DIAGNOSTICS = {
  // names, calls and statements
  unknownName: {
    code: "E0233",
    title: "unknown name",
    text: (name: string) => `Unknown name '${name}'.`,
    explanation: "A name read in code is not a parameter, not assigned anywhere in the same function (or top-level code), and not an agent, a function, a builtin or (top level only) `args`. Each fn has its own scope: top-level variables are not seen inside it. The hint names the closest name in scope.",
    example: 'name = "Ada"\nprint(nmae)',
  },
  unknownTool: {
    code: "E0234",
    title: "unknown tool",
    text: (name: string) => `Unknown tool '${name}'.`,
    explanation: "A direct call, `using tool` or an agent's `tools` names a tool the program does not declare. Every tool needs a `tool` contract in the program, even when a module provides its handler.",
    example: "x = tool calculat({ a: 1, b: 2 })",
  },
  unknownModel: {
    code: "E0235",
    title: "unknown model",
    text: (name: string) => `Unknown model '${name}'.`,
    explanation: "An agent's `model` names no declared model.",
    example: "agent A { model: Missing }",
  },
  unknownDatasource: {
    code: "E0236",
    title: "unknown datasource",
    text: (name: string) => `Unknown datasource '${name}'.`,
    explanation: "A query's or command's `source` names no declared datasource.",
    example: 'query q() -> Row[] { source: Nowhere  sql: "SELECT 1" }',
  },
  unknownDb: {
    code: "E0237",
    title: "unknown query or command",
    text: (op: string, name: string) => `Unknown ${op} '${name}'.`,
    explanation: "`query name(…)` or `command name(…)` calls a statement the program does not declare.",
    example: "rows = query top_customrs({ limit: 3 })",
  },
  unknownFunction: {
    code: "E0238",
    title: "unknown function",
    text: (name: string) => `Unknown function '${name}'.`,
    explanation: "A call names no builtin, no top-level fn and (inside an agent) no sibling method. A method of another agent is called as `Agent.method(…)`.",
    example: 'pritn("hello")',
  },
  unknownMethod: {
    code: "E0239",
    title: "agent has no such method",
    text: (agent: string, method: string) => `Agent '${agent}' has no method '${method}'.`,
    explanation: "`Agent.method(…)` names a method the agent does not declare.",
    example: 'agent A { fn run() { print(1) } }\nA.runn()',
  },
  unknownAgent: {
    code: "E0240",
    title: "unknown agent",
    text: (name: string) => `Unknown agent '${name}'.`,
    explanation: "`X.method(…)` calls a method of `X`, but no agent `X` is declared. Inside an agent, a sibling method is called by its bare name, not through `self`.",
    example: "Reviewer.run()",
  },
  notCallable: {
    code: "E0241",
    title: "not callable",
    text: () => `Only functions, builtins and agent methods can be called.`,
    explanation: "Only builtins, top-level functions and agent methods can be called; a variable holding a value cannot.",
    example: "x = 1\nx()",
  },
  functionValue: {
    code: "E0253",
    title: "function or agent used as a value",
    /** `what`: "a function", "a builtin function", "an agent", "a method of agent 'A'". */
    text: (name: string, what: string) => `'${name}' is ${what}, not a value.`,
    explanation:
      "A top-level `fn`, a builtin, an agent or an agent's method is named where a value belongs (`y = f`, `calls(print)`, `x = len`, `print(A)`, `m = A.run`). Functions and agents are not values in Luma: they cannot be stored, passed or printed, so the program would always stop there at run time. Call it, `f(…)` or `A.run(…)`; `calls` takes the tool's name as a string, `calls(\"lookup\")`. A variable of the same name (a parameter, an assignment) is a value and is fine.",
    example: "fn double(n: int) -> int {\n  return n * 2\n}\ny = double",
  },
  arity: {
    code: "E0242",
    title: "wrong number of arguments",
    text: (what: string, expected: string, got: number) =>
      `${what} expects ${expected} argument${expected === "1" ? "" : "s"}, got ${got}.`,
    explanation: "The call passes more or fewer arguments than the callee takes. Optional (`p?: T`) and defaulted parameters may be left out.",
    example: 'fn greet(name: string) { print(name) }\ngreet("a", "b")',
  },
  returnOutsideFn: {
    code: "E0243",
    title: "top-level return with a value",
    text: () => `A top-level 'return' takes no value: it ends the script (use exit(code) to end with a status).`,
    explanation:
      "A `return` in top-level code ends the script; there is no caller to hand a value to. Write a bare `return`, or `exit(code)` to end with an exit status.",
    example: "return 1",
  },
  jumpOutsideLoop: {
    code: "E0261",
    title: "break or continue outside a loop",
    text: (keyword: string) => `'${keyword}' is only allowed inside a 'for' or 'while' loop.`,
    explanation:
      "`break` leaves the innermost `for` or `while` loop and `continue` starts its next turn; outside a loop (a fn body does not see the loop around its call) there is none to leave.",
    example: "if true {\n  break\n}",
  },
  returnValueOnNextLine: {
    code: "E0252",
    title: "return with its value on the next line",
    text: () =>
      `This 'return' returns nothing: its value must start on the same line, and the statement after it never runs.`,
    explanation:
      "A `return` ends at the end of its line: a value written on the next line is not returned, it is a separate statement that never runs. Luma reports this instead of silently returning nothing. Put the value on the same line as `return` (or remove the dead statement).",
    example: "fn f() -> int {\n  return\n  42\n}",
  },
  numberOutOfRange: {
    code: "E0244",
    title: "number literal out of range",
    text: () => `Number literal is out of range (it must be a finite number).`,
    explanation: "The literal reads as Infinity, which JSON (tool inputs, the wire, the program cache) cannot carry.",
    example: "x = 1e400",
  },
  integerNotExact: {
    code: "E0251",
    title: "integer literal beyond the exact range",
    text: () =>
      `Integer literal is beyond ±9007199254740991 (2^53−1) and would read as a different number; write it as a string of digits.`,
    explanation:
      "A JavaScript number holds integers exactly only up to ±9007199254740991 (2^53−1). A larger integer literal would silently read as a different number (9007199254740993 becomes …992), so it is refused. Write a large id as a string of digits; a `string` field or parameter keeps every digit, also when bound to an SQL INTEGER column.",
    example: "id = 9007199254740993",
  },
  severityWithoutRules: {
    code: "E0245",
    title: "@severity without a rule (warning)",
    text: (field: string) => `@severity on '${field}' has no rule to apply to (add @range, @length, @pattern, @format, @items, @min or @max).`,
    explanation: "@severity says how a broken rule is treated (hard: reject; soft: annotate), but the field has no rule for it to apply to. Add @range, @length, @pattern, @format, @items, @min or @max, or drop @severity.",
    example: 'schema S { note: string @severity("soft") }',
  },
  askOutsideAgent: {
    code: "E0246",
    title: "ask outside an agent method",
    text: () => `'ask' is only allowed inside an agent method.`,
    explanation: "`ask` talks to the agent's model, so it only exists inside an agent's methods; top-level code and top-level fns have no model.",
    example: 'answer = ask "hi" -> Answer',
  },
  askWithoutModel: {
    code: "E0247",
    title: "agent uses ask without a model",
    text: (agent: string) => `Agent '${agent}' uses ask but declares no model.`,
    explanation: "A method uses `ask`, but its agent declares no `model` to ask.",
    example: 'agent A {\n  fn run() -> Answer { ask "hi" -> Answer }\n}',
  },
  streamNotText: {
    code: "E0295",
    title: "stream ask with a target other than string",
    text: (target: string) => `'stream ask' writes text as it arrives, so its target must be 'string', not '${target}'.`,
    explanation:
      "`stream ask PROMPT -> string` writes the answer's text to stdout as the model writes it and returns that text. A structured answer (a schema, a number, a list) is only known once it is whole and validated, so it cannot be streamed: ask for it without `stream`.",
    example: 'agent A {\n  model: M\n  fn run() -> Answer { stream ask "hi" -> Answer }\n}',
  },
  askInNotThread: {
    code: "E0296",
    title: "ask … in a value that is not a Thread",
    text: (type: string) => `'ask … in' continues a conversation, so it takes a Thread, not '${type}'.`,
    explanation:
      "`ask PROMPT -> T in t` sends the messages of thread `t` before the prompt and appends the exchange to it. `t` must be a `Thread`: a value of `thread()`, `thread(id)`, or a parameter declared `t: Thread`.",
    example: 'agent A {\n  model: M\n  fn run(history: string) -> string { ask "hi" -> string in history }\n}',
  },
  handleAsData: {
    code: "E0297",
    title: "a built-in conversation type where data is needed",
    text: (type: string, where: string) => `'${type}' is a built-in conversation type, not data: it cannot be ${where}.`,
    explanation:
      "`Thread` (a conversation handle) and `Message` (one of its messages) are types of code — parameters, return types, variables of functions and methods. Data that crosses a boundary — a schema's field, a tool's or query's input and output, an ask's answer — is validated against a schema, which neither is. Declare a schema of your own for data.",
    example: "schema Ticket { thread: Thread }",
  },
  toolNameTooLong: {
    code: "E0248",
    title: "tool name too long for model providers",
    text: (agent: string, tool: string, max: number) =>
      `Agent '${agent}' offers tool '${tool}' to its model, but model providers accept tool names of at most ${max} characters.`,
    explanation: "Model providers accept tool (function) names of at most 64 characters; a longer name offered to a model would be refused by the provider. Rename the tool.",
    example: "agent A {\n  model: M\n  tools: [a_tool_name_that_goes_on_and_on_and_on_well_past_sixty_four_characters]\n}",
  },
  // the spec's exact agent messages (byte for byte)
  usingToolNotAllowed: {
    code: "E0249",
    title: "using tool not allowed by the agent",
    exact: true,
    text: (agent: string, tool: string) =>
      `Agent '${agent}' does not allow the tool '${tool}' required by using tool.`,
    explanation: "`ask … using tool x` offers `x` to the model, so `x` must be in the agent's `tools` (spec §7, exact message).",
    example: 'agent A {\n  model: M\n  tools: []\n  fn run() -> Out { ask "go" -> Out using tool calculate }\n}',
  },
  directToolNotAllowed: {
    code: "E0250",
    title: "direct tool call not allowed by the agent",
    exact: true,
    text: (agent: string, tool: string) =>
      `Agent '${agent}' does not allow tool '${tool}' to be called directly.`,
    explanation: "Inside an agent method, a direct `tool x(…)` call must name a tool in the agent's `tools`: the agent's policies apply to every call it makes (spec §7, exact message).",
    example: "agent A {\n  tools: []\n  fn run() { tool calculate({ a: 1, b: 2 }) }\n}",
  },
} as const satisfies Record<string, WordedEntry>;
