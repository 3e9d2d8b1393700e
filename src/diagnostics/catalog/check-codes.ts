/**
 * E02xx: the checker's declaration and code rules (`src/check/rules/*`, messages in
 * `src/check/messages.ts`, codes given in `src/check/message-codes.ts`). All are errors
 * that reject the program before it runs (exit code 2), except E0245, a warning. A test
 * keeps this list and the message codes in step.
 */
import type { CatalogEntry } from "./catalog-entry";

export const checkCodes: CatalogEntry[] = [
  {
    code: "E0201",
    title: "duplicate declaration",
    explanation: "Two declarations of the same kind have the same name. Every declaration is reported at its second occurrence; rename or remove one.",
    example: "schema Answer { text: string }\nschema Answer { text: string }",
  },
  {
    code: "E0202",
    title: "name already declared as another kind",
    explanation: "Schemas, tools, models, agents, functions, datasources, queries and commands share one namespace: a name can be declared only once, whatever its kind.",
    example: "schema Out { ok: bool }\nfn Out() { print(1) }",
  },
  {
    code: "E0203",
    title: "duplicate member",
    explanation: "A field, parameter, method, key, `needs` entry, union member or listed tool appears twice in the same declaration. The second one is reported.",
    example: "schema S { a: int  a: string }",
  },
  {
    code: "E0204",
    title: "unknown schema",
    explanation: "A type names nothing the program declares. Types are the primitives `string`, `int`, `float`, `bool`, `any`, `enum[…]`, arrays `T[]` and declared schemas or tagged unions. The hint names the closest declared type.",
    example: "schema Answer { text: string }\nfn show(a: Answr) { print(a) }",
  },
  {
    code: "E0205",
    title: "wrong kind of declaration",
    explanation: "A name is declared, but as something else than what this place needs: a model where a schema is expected, a query where a command is called, a schema listed as a tool.",
    example: 'model M { provider: "openai", name: "gpt-4o" }\nschema S { a: M }',
  },
  {
    code: "E0206",
    title: "tagged union member is a union",
    explanation: "The members of a tagged union must be plain schemas: a union of unions has no single tag field to tell them apart. List the plain schemas directly.",
    example: "schema A { x: int }\nschema B { y: int }\nschema AB = A | B tagged by kind\nschema U = AB | A tagged by kind",
  },
  {
    code: "E0207",
    title: "union tag clashes with a field",
    explanation: "The tag field of a tagged union is added to every member; a member that already declares a field of that name would have two meanings for it. Choose another tag name.",
    example: "schema Invoice { kind: string  total: float }\nschema Receipt { total: float }\nschema Doc = Invoice | Receipt tagged by kind",
  },
  {
    code: "E0208",
    title: "recursive schema",
    explanation: "A schema contains itself, directly or through other schemas, with no way to stop: no value of it could ever be written. The message shows the cycle.",
    example: "schema Node { next: Node }",
  },
  {
    code: "E0209",
    title: "unknown annotation",
    explanation: "A field annotation Luma does not know. The known ones are @desc, @default, @range, @length, @pattern, @format, @items, @min, @max and @severity. The hint names the closest one.",
    example: "schema S { a: int @rnage(0, 10) }",
  },
  {
    code: "E0210",
    title: "annotation on a type it does not apply to",
    explanation: "Each annotation applies to some field types only: @length, @pattern and @format to strings; @range, @min and @max to numbers (int, float); @items to arrays; @desc, @default and @severity to any field. Move it to a field of the right type or remove it.",
    example: "schema S { name: string @range(0, 10) }",
  },
  {
    code: "E0211",
    title: "annotation argument count",
    explanation: "The annotation takes a fixed number of arguments (for example `@range(min, max)` takes two).",
    example: "schema S { a: int @range(1) }",
  },
  {
    code: "E0212",
    title: "annotation argument of the wrong kind",
    explanation: "An annotation argument has the wrong kind of value: a string where a number is needed, a negative count, and so on.",
    example: 'schema S { a: int @range("0", 10) }',
  },
  {
    code: "E0213",
    title: "annotation value not allowed",
    explanation: "The annotation takes one of a fixed list of strings: @format one of \"email\", \"uri\", \"uuid\", \"date\", \"date-time\"; @severity \"hard\" or \"soft\".",
    example: 'schema S { mail: string @format("mail") }',
  },
  {
    code: "E0214",
    title: "annotation bounds out of order",
    explanation: "A minimum is greater than its maximum, so no value could pass the rule. Swap the bounds.",
    example: "schema S { a: int @range(10, 0) }",
  },
  {
    code: "E0215",
    title: "invalid regular expression",
    explanation: "The @pattern argument does not compile as an ECMAScript regular expression (the dialect of JSON Schema and of the validators).",
    example: 'schema S { code: string @pattern("([a-z]") }',
  },
  {
    code: "E0216",
    title: "@default does not match the field type",
    explanation: "The default value must be a valid value of the field's type, or the defaults would produce data the schema rejects.",
    example: 'schema S { n: int @default("one") }',
  },
  {
    code: "E0217",
    title: "duplicate annotation",
    explanation: "The same annotation is written twice on one field; only one could apply. Keep one.",
    example: "schema S { a: int @range(0, 5) @range(0, 9) }",
  },
  {
    code: "E0218",
    title: "unknown key",
    explanation: "A tool, model, agent, datasource, query or command block has a key it does not accept. Each block's keys are listed in the language reference (§4 tool options, §5 models, §6 agents, §12 datasources); the hint names the closest accepted key.",
    example: 'tool lookup(q: string) -> Answer {\n  side_effect: "read"\n}',
  },
  {
    code: "E0219",
    title: "missing required key",
    explanation: "The block lacks a key it must have: a model needs `provider` and `name`, a query or command needs `source` and `sql`.",
    example: 'model M { provider: "openai" }',
  },
  {
    code: "E0220",
    title: "key value of the wrong kind",
    explanation: "A key holds a value of the wrong kind: a string where a number is needed, an integer below its minimum, a provider or policy not in the allowed list.",
    example: 'tool t(a: int) -> Out { retries: "three" }',
  },
  {
    code: "E0221",
    title: "openai-compatible model without base_url",
    explanation: "A model with provider \"openai-compatible\" talks to a server of your choice, so it must say which: set `base_url`.",
    example: 'model Local { provider: "openai-compatible", name: "llama3" }',
  },
  {
    code: "E0222",
    title: "tool must return a schema",
    explanation: "A tool's result is validated and described to models as a JSON object: its return type must be a declared schema or tagged union, not a primitive or an array.",
    example: "tool count(text: string) -> int {}",
  },
  {
    code: "E0223",
    title: "needs type must be a schema",
    explanation: "A `needs` dependency is described by a declared schema (the shape the host provides), not a primitive or an array.",
    example: "tool save(id: string) -> Out {\n  needs db: string\n}",
  },
  {
    code: "E0224",
    title: "idempotency_key names no parameter",
    explanation: "`idempotency_key` is a path into the tool's input (`request_id` or `input.request_id`); the path must lead to a declared parameter.",
    example: 'tool pay(amount: float) -> Out {\n  side_effects: "write"\n  idempotent: true\n  idempotency_key: request_id\n}',
  },
  {
    code: "E0225",
    title: "write tool cannot use cache",
    explanation: "A cached write would skip its side effect on the second call. Write tools are never cached (spec §4, exact message).",
    example: 'tool send(to: string) -> Out {\n  side_effects: "write"\n  cache: true\n}',
  },
  {
    code: "E0226",
    title: "retried write tool must be idempotent with a key",
    explanation: "Retrying a write that may have happened would do it twice. A write tool with `retries > 0` must be `idempotent: true` with an `idempotency_key` (spec §4, exact message).",
    example: 'tool send(to: string) -> Out {\n  side_effects: "write"\n  retries: 2\n}',
  },
  {
    code: "E0227",
    title: "idempotent tool without idempotency_key",
    explanation: "Idempotency is per key: without `idempotency_key` there is nothing to recognise a repeated call by (spec §4, exact message).",
    example: "tool pay(request_id: string) -> Out {\n  idempotent: true\n}",
  },
  {
    code: "E0228",
    title: "tool timeout must be positive",
    explanation: "`timeout` is in milliseconds and must be greater than zero (spec §4, exact message).",
    example: "tool t(a: int) -> Out { timeout: 0 }",
  },
  {
    code: "E0229",
    title: "query must return schema rows",
    explanation: "A query's rows are validated against a schema: its return type is a schema `T` (first row or null) or `T[]` (all rows).",
    example: 'query top(limit: int) -> int[] { source: Db  sql: "SELECT id FROM c LIMIT $1" }',
  },
  {
    code: "E0230",
    title: "command must return a schema",
    explanation: "A command returns one schema built from its first returned row (for example `{ rows_affected }` declared by you), never an array.",
    example: 'command add(name: string) -> Out[] { source: Db  sql: "INSERT INTO c(name) VALUES ($1)" }',
  },
  {
    code: "E0231",
    title: "datasource sets both url and url_env",
    explanation: "A datasource takes its URL from the program (`url`) or from an environment variable (`url_env`), not both; keep one.",
    example: 'datasource Db { url: "sqlite:./data.db"  url_env: "DATABASE_URL" }',
  },
  {
    code: "E0232",
    title: "datasource url scheme not built in",
    explanation: "The built-in bridges are SQLite (`sqlite:PATH`) and PostgreSQL (`postgres://…`). Other databases need a module bridge exported by a tool module.",
    example: 'datasource Db { url: "mysql://localhost/shop" }',
  },
  {
    code: "E0233",
    title: "unknown name",
    explanation: "A name read in code is not a parameter, not assigned anywhere in the same function (or top-level code), and not an agent, a function, a builtin or (top level only) `args`. Each fn has its own scope: top-level variables are not seen inside it. The hint names the closest name in scope.",
    example: 'name = "Ada"\nprint(nmae)',
  },
  {
    code: "E0234",
    title: "unknown tool",
    explanation: "A direct call, `using tool` or an agent's `tools` names a tool the program does not declare. Every tool needs a `tool` contract in the program, even when a module provides its handler.",
    example: "x = tool calculat({ a: 1, b: 2 })",
  },
  {
    code: "E0235",
    title: "unknown model",
    explanation: "An agent's `model` names no declared model.",
    example: "agent A { model: Missing }",
  },
  {
    code: "E0236",
    title: "unknown datasource",
    explanation: "A query's or command's `source` names no declared datasource.",
    example: 'query q() -> Row[] { source: Nowhere  sql: "SELECT 1" }',
  },
  {
    code: "E0237",
    title: "unknown query or command",
    explanation: "`query name(…)` or `command name(…)` calls a statement the program does not declare.",
    example: "rows = query top_customrs({ limit: 3 })",
  },
  {
    code: "E0238",
    title: "unknown function",
    explanation: "A call names no builtin, no top-level fn and (inside an agent) no sibling method. A method of another agent is called as `Agent.method(…)`.",
    example: 'pritn("hello")',
  },
  {
    code: "E0239",
    title: "agent has no such method",
    explanation: "`Agent.method(…)` names a method the agent does not declare.",
    example: 'agent A { fn run() { print(1) } }\nA.runn()',
  },
  {
    code: "E0240",
    title: "unknown agent",
    explanation: "`X.method(…)` calls a method of `X`, but no agent `X` is declared. Inside an agent, a sibling method is called by its bare name, not through `self`.",
    example: "Reviewer.run()",
  },
  {
    code: "E0241",
    title: "not callable",
    explanation: "Only builtins, top-level functions and agent methods can be called; a variable holding a value cannot.",
    example: "x = 1\nx()",
  },
  {
    code: "E0242",
    title: "wrong number of arguments",
    explanation: "The call passes more or fewer arguments than the callee takes. Optional (`p?: T`) and defaulted parameters may be left out.",
    example: 'fn greet(name: string) { print(name) }\ngreet("a", "b")',
  },
  {
    code: "E0243",
    title: "top-level return with a value",
    explanation:
      "A `return` in top-level code ends the script; there is no caller to hand a value to. Write a bare `return`, or `exit(code)` to end with an exit status.",
    example: "return 1",
  },
  {
    code: "E0244",
    title: "number literal out of range",
    explanation: "The literal reads as Infinity, which JSON (tool inputs, the wire, the program cache) cannot carry.",
    example: "x = 1e400",
  },
  {
    code: "E0245",
    title: "@severity without a rule (warning)",
    explanation: "@severity says how a broken rule is treated (hard: reject; soft: annotate), but the field has no rule for it to apply to. Add @range, @length, @pattern, @format, @items, @min or @max, or drop @severity.",
    example: 'schema S { note: string @severity("soft") }',
  },
  {
    code: "E0246",
    title: "ask outside an agent method",
    explanation: "`ask` talks to the agent's model, so it only exists inside an agent's methods; top-level code and top-level fns have no model.",
    example: 'answer = ask "hi" -> Answer',
  },
  {
    code: "E0247",
    title: "agent uses ask without a model",
    explanation: "A method uses `ask`, but its agent declares no `model` to ask.",
    example: 'agent A {\n  fn run() -> Answer { ask "hi" -> Answer }\n}',
  },
  {
    code: "E0248",
    title: "tool name too long for model providers",
    explanation: "Model providers accept tool (function) names of at most 64 characters; a longer name offered to a model would be refused by the provider. Rename the tool.",
    example: "agent A {\n  model: M\n  tools: [a_tool_name_that_goes_on_and_on_and_on_well_past_sixty_four_characters]\n}",
  },
  {
    code: "E0249",
    title: "using tool not allowed by the agent",
    explanation: "`ask … using tool x` offers `x` to the model, so `x` must be in the agent's `tools` (spec §7, exact message).",
    example: 'agent A {\n  model: M\n  tools: []\n  fn run() -> Out { ask "go" -> Out using tool calculate }\n}',
  },
  {
    code: "E0250",
    title: "direct tool call not allowed by the agent",
    explanation: "Inside an agent method, a direct `tool x(…)` call must name a tool in the agent's `tools`: the agent's policies apply to every call it makes (spec §7, exact message).",
    example: "agent A {\n  tools: []\n  fn run() { tool calculate({ a: 1, b: 2 }) }\n}",
  },
  {
    code: "E0251",
    title: "integer literal beyond the exact range",
    explanation:
      "A JavaScript number holds integers exactly only up to ±9007199254740991 (2^53−1). A larger integer literal would silently read as a different number (9007199254740993 becomes …992), so it is refused. Write a large id as a string of digits; a `string` field or parameter keeps every digit, also when bound to an SQL INTEGER column.",
    example: "id = 9007199254740993",
  },
  {
    code: "E0252",
    title: "return with its value on the next line",
    explanation:
      "A `return` ends at the end of its line: a value written on the next line is not returned, it is a separate statement that never runs. Luma reports this instead of silently returning nothing. Put the value on the same line as `return` (or remove the dead statement).",
    example: "fn f() -> int {\n  return\n  42\n}",
  },
  {
    code: "E0253",
    title: "function or agent used as a value",
    explanation:
      "A top-level `fn`, a builtin, an agent or an agent's method is named where a value belongs (`y = f`, `calls(print)`, `x = len`, `print(A)`, `m = A.run`). Functions and agents are not values in Luma: they cannot be stored, passed or printed, so the program would always stop there at run time. Call it, `f(…)` or `A.run(…)`; `calls` takes the tool's name as a string, `calls(\"lookup\")`. A variable of the same name (a parameter, an assignment) is a value and is fine.",
    example: "fn double(n: int) -> int {\n  return n * 2\n}\ny = double",
  },
  {
    code: "E0261",
    title: "break or continue outside a loop",
    explanation:
      "`break` leaves the innermost `for` or `while` loop and `continue` starts its next turn; outside a loop (a fn body does not see the loop around its call) there is none to leave.",
    example: "if true {\n  break\n}",
  },
  {
    code: "E0290",
    title: "Responses API on a provider other than openai",
    explanation: '`api: "responses"` picks the OpenAI Responses API, which only provider "openai" speaks; other providers have one API each. Remove `api`, or use provider "openai".',
    example: 'model M { provider: "anthropic", name: "claude-sonnet-4-5", api: "responses" }',
  },
];
