/**
 * E0201–E0232, E0275–E0276 and E0290–E0294: the checker's rules about declarations — names,
 * members, schemas, annotations, the keys of declaration blocks, tools, queries and
 * commands. One entry per
 * diagnostic: its code, title, the text builder the rule reports with (typed parameters:
 * `messages.unknownKey(key, owner)` in `src/check/messages.ts` is this entry's `text`), the
 * explanation and the example `luma explain CODE` prints. `exact: true` marks the texts the
 * spec words byte for byte: nobody rewords them.
 *
 * Keyed by the builder's name; the rules that report them live in `src/check/rules/`.
 */
import type { WordedEntry } from "./catalog-entry";

export const CHECK_DECLARATION_DIAGNOSTICS = {
  // declarations and members
  duplicateDecl: {
    code: "E0201",
    title: "duplicate declaration",
    text: (kind: string, name: string) => `Duplicate ${kind} '${name}'.`,
    explanation: "Two declarations of the same kind have the same name. Every declaration is reported at its second occurrence; rename or remove one.",
    example: "schema Answer { text: string }\nschema Answer { text: string }",
  },
  duplicateName: {
    code: "E0202",
    title: "name already declared as another kind",
    text: (name: string, earlierKind: string) =>
      `Duplicate name '${name}': already declared as ${earlierKind}.`,
    explanation: "Schemas, tools, models, agents, functions, datasources, queries and commands share one namespace: a name can be declared only once, whatever its kind.",
    example: "schema Out { ok: bool }\nfn Out() { print(1) }",
  },
  duplicateMember: {
    code: "E0203",
    title: "duplicate member",
    text: (what: string, name: string, owner: string) => `Duplicate ${what} '${name}' in ${owner}.`,
    explanation: "A field, parameter, method, key, `needs` entry, union member or listed tool appears twice in the same declaration. The second one is reported.",
    example: "schema S { a: int  a: string }",
  },
  // types
  unknownSchema: {
    code: "E0204",
    title: "unknown schema",
    text: (name: string) => `Unknown schema '${name}'.`,
    explanation: "A type names nothing the program declares. Types are the primitives `string`, `int`, `float`, `bool`, `any`, `enum[…]`, arrays `T[]` and declared schemas or tagged unions. The hint names the closest declared type.",
    example: "schema Answer { text: string }\nfn show(a: Answr) { print(a) }",
  },
  wrongKind: {
    code: "E0205",
    title: "wrong kind of declaration",
    /** `'M' is a model, not a schema.` — `actual` with its article. */
    text: (name: string, actual: string, wanted: string) => `'${name}' is ${actual}, not a ${wanted}.`,
    explanation: "A name is declared, but as something else than what this place needs: a model where a schema is expected, a query where a command is called, a schema listed as a tool.",
    example: 'model M { provider: "openai", name: "gpt-4o" }\nschema S { a: M }',
  },
  unionMemberNotPlain: {
    code: "E0206",
    title: "tagged union member is a union",
    text: (member: string, union: string) =>
      `Member '${member}' of schema '${union}' must be a plain schema, not a tagged union.`,
    explanation: "The members of a tagged union must be plain schemas: a union of unions has no single tag field to tell them apart. List the plain schemas directly.",
    example: "schema A { x: int }\nschema B { y: int }\nschema AB = A | B tagged by kind\nschema U = AB | A tagged by kind",
  },
  unionTagClash: {
    code: "E0207",
    title: "union tag clashes with a field",
    text: (tag: string, union: string, member: string) =>
      `Tag '${tag}' of schema '${union}' clashes with a field of member '${member}'.`,
    explanation: "The tag field of a tagged union is added to every member; a member that already declares a field of that name would have two meanings for it. Choose another tag name.",
    example: "schema Invoice { kind: string  total: float }\nschema Receipt { total: float }\nschema Doc = Invoice | Receipt tagged by kind",
  },
  recursiveSchema: {
    code: "E0208",
    title: "recursive schema",
    /** A cycle of required links (recursion through `?`, `[]` or a finite union member is fine). */
    text: (name: string, cycle: string[]) =>
      `Schema '${name}' is recursive with no finite value: ${cycle.join(" -> ")}. Make a field on the cycle optional (name?: T, without @default) or a list (T[]).`,
    explanation: "A schema contains itself, directly or through other schemas, with no way to stop: no value of it could ever be written. The message shows the cycle.",
    example: "schema Node { next: Node }",
  },
  // annotations
  unknownAnnotation: {
    code: "E0209",
    title: "unknown annotation",
    text: (name: string) => `Unknown annotation '@${name}'.`,
    explanation: "A field annotation Luma does not know. The known ones are @desc, @default, @range, @length, @pattern, @format, @items, @min, @max and @severity. The hint names the closest one.",
    example: "schema S { a: int @rnage(0, 10) }",
  },
  annotationWrongType: {
    code: "E0210",
    title: "annotation on a type it does not apply to",
    text: (name: string, type: string) => `Annotation '@${name}' does not apply to type '${type}'.`,
    explanation: "Each annotation applies to some field types only: @length, @pattern and @format to strings; @range, @min and @max to numbers (int, float); @items to arrays; @desc, @default and @severity to any field. Move it to a field of the right type or remove it.",
    example: "schema S { name: string @range(0, 10) }",
  },
  annotationArity: {
    code: "E0211",
    title: "annotation argument count",
    text: (name: string, expected: number, got: number) =>
      `Annotation '@${name}' expects ${expected} argument${expected === 1 ? "" : "s"}, got ${got}.`,
    explanation: "The annotation takes a fixed number of arguments (for example `@range(min, max)` takes two).",
    example: "schema S { a: int @range(1) }",
  },
  annotationArgType: {
    code: "E0212",
    title: "annotation argument of the wrong kind",
    text: (name: string, index: number, expected: string) =>
      `Annotation '@${name}' argument ${index} must be ${expected}.`,
    explanation: "An annotation argument has the wrong kind of value: a string where a number is needed, a negative count, and so on.",
    example: 'schema S { a: int @range("0", 10) }',
  },
  annotationValues: {
    code: "E0213",
    title: "annotation value not allowed",
    /** `allowed`: the values as `oneOfText` words them (`"hard" or "soft"`). */
    text: (name: string, allowed: string) => `Annotation '@${name}' must be ${allowed}.`,
    explanation: "The annotation takes one of a fixed list of strings: @format one of \"email\", \"uri\", \"uuid\", \"date\", \"date-time\"; @severity \"hard\" or \"soft\".",
    example: 'schema S { mail: string @format("mail") }',
  },
  annotationBounds: {
    code: "E0214",
    title: "annotation bounds out of order",
    text: (name: string) => `Annotation '@${name}' minimum must not be greater than its maximum.`,
    explanation: "A minimum is greater than its maximum, so no value could pass the rule. Swap the bounds.",
    example: "schema S { a: int @range(10, 0) }",
  },
  annotationBadRegex: {
    code: "E0215",
    title: "invalid regular expression",
    text: (name: string) => `Annotation '@${name}' is not a valid ECMAScript regular expression.`,
    explanation: "The @pattern argument does not compile as an ECMAScript regular expression (the dialect of JSON Schema and of the validators).",
    example: 'schema S { code: string @pattern("([a-z]") }',
  },
  defaultMismatch: {
    code: "E0216",
    title: "@default does not match the field type",
    text: (type: string) => `Annotation '@default' value does not match type '${type}'.`,
    explanation: "The default value must be a valid value of the field's type, or the defaults would produce data the schema rejects.",
    example: 'schema S { n: int @default("one") }',
  },
  duplicateAnnotation: {
    code: "E0217",
    title: "duplicate annotation",
    text: (name: string, field: string) => `Duplicate annotation '@${name}' on '${field}'.`,
    explanation: "The same annotation is written twice on one field; only one could apply. Keep one.",
    example: "schema S { a: int @range(0, 5) @range(0, 9) }",
  },
  // configuration entries (tool options, model/agent/datasource/query keys)
  unknownKey: {
    code: "E0218",
    title: "unknown key",
    text: (key: string, owner: string) => `Unknown key '${key}' in ${owner}.`,
    explanation: "A tool, model, agent, datasource, query or command block has a key it does not accept. Each block's keys are listed in the language reference (§4 tool options, §5 models, §6 agents, §12 datasources); the hint names the closest accepted key.",
    example: 'tool lookup(q: string) -> Answer {\n  side_effect: "read"\n}',
  },
  missingKey: {
    code: "E0219",
    title: "missing required key",
    text: (key: string, owner: string) => `Missing key '${key}' in ${owner}.`,
    explanation: "The block lacks a key it must have: a model needs `provider` and `name`, a query or command needs `source` and `sql`.",
    example: 'model M { provider: "openai" }',
  },
  keyValue: {
    code: "E0220",
    title: "key value of the wrong kind",
    text: (key: string, owner: string, expected: string) => `Key '${key}' in ${owner} must be ${expected}.`,
    explanation: "A key holds a value of the wrong kind: a string where a number is needed, an integer below its minimum, a provider or policy not in the allowed list.",
    example: 'tool t(a: int) -> Out { retries: "three" }',
  },
  baseUrlRequired: {
    code: "E0221",
    title: "openai-compatible model without base_url",
    text: (model: string) => `Model '${model}' with provider "openai-compatible" must specify a base_url.`,
    explanation: "A model with provider \"openai-compatible\" talks to a server of your choice, so it must say which: set `base_url`.",
    example: 'model Local { provider: "openai-compatible", name: "llama3" }',
  },
  responsesApiProvider: {
    code: "E0290",
    title: "Responses API on a provider other than openai",
    text: (model: string, provider: string) => `Model '${model}': api "responses" is only for provider "openai" (this model's provider is "${provider}").`,
    explanation: '`api: "responses"` picks the OpenAI Responses API, which only provider "openai" speaks; other providers have one API each. Remove `api`, or use provider "openai".',
    example: 'model M { provider: "anthropic", name: "claude-sonnet-4-5", api: "responses" }',
  },
  modelOptionUnsupported: {
    code: "E0291",
    title: "a model option its API does not take",
    text: (model: string, key: string, api: string) => `Model '${model}': ${api} has no '${key}' option.`,
    explanation:
      "`top_p`, `seed`, `stop` and `reasoning_effort` are mapped onto each provider's own request field, and not every API has each: the Responses API takes no `seed` or `stop`, Anthropic no `seed` or `top_p`. Luma refuses the key rather than drop it silently. The table: docs/language/models.md § Sampling and reasoning.",
    example: 'model M { provider: "anthropic", name: "claude-sonnet-4-5", seed: 7 }',
  },
  providerOptionReserved: {
    code: "E0292",
    title: "provider_options sets a field Luma writes",
    text: (model: string, path: string, api: string) => `Model '${model}': provider_options cannot set '${path}': Luma writes it for ${api}.`,
    explanation:
      "`provider_options` is merged into every request body of the model, last. The fields Luma writes itself — the messages, the system prompt, the tools and tool choice, the answer's format, and the thinking fields when `reasoning_effort` is set — are not the program's to override: use the language's own keys for them.",
    example: 'model M { provider: "openai", name: "gpt-5.4-mini", provider_options: { messages: [] } }',
  },
  modelOptionRange: {
    code: "E0293",
    title: "top_p out of range",
    text: (model: string) => `Model '${model}': top_p must be between 0 and 1.`,
    explanation: "`top_p` is a probability mass: a number from 0 to 1.",
    example: 'model M { provider: "openai", name: "gpt-5.4-mini", top_p: 1.5 }',
  },
  thinkingConflict: {
    code: "E0294",
    title: "a setting Anthropic refuses while the model thinks",
    text: (model: string, what: string) => `Model '${model}': with reasoning_effort, Anthropic takes ${what}.`,
    explanation:
      "On Anthropic, `reasoning_effort` turns on extended thinking, which the API does not combine with a `temperature` or with a forced tool (`ask … using tool t`). Luma says so before the request would fail.",
    example: 'model M { provider: "anthropic", name: "claude-sonnet-4-5", reasoning_effort: "low", temperature: 0.2 }',
  },
  // tools
  clientToolKey: {
    code: "E0278",
    title: "a client tool with a key only a host handler uses",
    text: (tool: string, key: string) => `Tool '${tool}' is answered by the client (handler: "client"), so it cannot also have '${key}'.`,
    explanation:
      'A tool declared `handler: "client"` has no host handler: the caller answers each call (`luma runs answer`, the terminal, an MCP client). Keys that only mean something for a handler the host runs — `mcp`/`mcp_tool` (another handler), `cache`, `retries`, `idempotent`/`idempotency_key` and `needs` (a handler\'s context) — would silently do nothing, so they are refused. `approval`, `timeout` (how long an MCP client is given to answer) and the others apply.',
    example: 'schema Confirmed { ok: bool }\ntool confirm(address: string) -> Confirmed {\n  handler: "client"\n  retries: 2\n}',
  },
  toolReturn: {
    code: "E0222",
    title: "tool must return a schema",
    text: (tool: string, type: string) => `Tool '${tool}' must return a declared schema, not '${type}'.`,
    explanation: "A tool's result is validated and described to models as a JSON object: its return type must be a declared schema or tagged union, not a primitive or an array.",
    example: "tool count(text: string) -> int {}",
  },
  needsType: {
    code: "E0223",
    title: "needs type must be a schema",
    text: (tool: string, needs: string, type: string) =>
      `needs '${needs}' of tool '${tool}' must be a declared schema, not '${type}'.`,
    explanation: "A `needs` dependency is described by a declared schema (the shape the host provides), not a primitive or an array.",
    example: "tool save(id: string) -> Out {\n  needs db: string\n}",
  },
  idempotencyKeyPath: {
    code: "E0224",
    title: "idempotency_key names no parameter",
    text: (tool: string, path: string) =>
      `Tool '${tool}' idempotency_key '${path}' does not name a parameter.`,
    explanation: "`idempotency_key` is a path into the tool's input (`request_id` or `input.request_id`); the path must lead to a declared parameter.",
    example: 'tool pay(amount: float) -> Out {\n  side_effects: "write"\n  idempotent: true\n  idempotency_key: request_id\n}',
  },
  // queries and commands
  queryReturn: {
    code: "E0229",
    title: "query must return schema rows",
    text: (name: string, type: string) => `Query '${name}' must return a schema or a schema array, not '${type}'.`,
    explanation: "A query's rows are validated against a schema: its return type is a schema `T` (first row or null) or `T[]` (all rows).",
    example: 'query top(limit: int) -> int[] { source: Db  sql: "SELECT id FROM c LIMIT $1" }',
  },
  commandReturn: {
    code: "E0230",
    title: "command must return a schema",
    text: (name: string, type: string) => `Command '${name}' must return a schema, not '${type}'.`,
    explanation: "A command returns one schema built from its first returned row (for example `{ rows_affected }` declared by you), never an array.",
    example: 'command add(name: string) -> Out[] { source: Db  sql: "INSERT INTO c(name) VALUES ($1)" }',
  },
  datasourceUrlTwice: {
    code: "E0231",
    title: "datasource sets both url and url_env",
    text: (name: string) => `Datasource '${name}' sets both url and url_env; keep one.`,
    explanation: "A datasource takes its URL from the program (`url`) or from an environment variable (`url_env`), not both; keep one.",
    example: 'datasource Db { url: "sqlite:./data.db"  url_env: "DATABASE_URL" }',
  },
  datasourceUrlScheme: {
    code: "E0232",
    title: "datasource url scheme not built in",
    text: (name: string) =>
      `Datasource '${name}' url must start with "sqlite:" or "postgres://" (other databases need a module bridge).`,
    explanation: "The built-in bridges are SQLite (`sqlite:PATH`) and PostgreSQL (`postgres://…`). Other databases need a module bridge exported by a tool module.",
    example: 'datasource Db { url: "mysql://localhost/shop" }',
  },
  // the spec's exact tool messages (byte for byte)
  writeToolCache: {
    code: "E0225",
    title: "write tool cannot use cache",
    exact: true,
    text: (tool: string) => `Write tool '${tool}' cannot use cache.`,
    explanation: "A cached write would skip its side effect on the second call. Write tools are never cached (spec §4, exact message).",
    example: 'tool send(to: string) -> Out {\n  side_effects: "write"\n  cache: true\n}',
  },
  writeToolRetries: {
    code: "E0226",
    title: "retried write tool must be idempotent with a key",
    exact: true,
    text: (tool: string) =>
      `A write tool '${tool}' must be idempotent and specify an idempotency_key to be retried.`,
    explanation: "Retrying a write that may have happened would do it twice. A write tool with `retries > 0` must be `idempotent: true` with an `idempotency_key` (spec §4, exact message).",
    example: 'tool send(to: string) -> Out {\n  side_effects: "write"\n  retries: 2\n}',
  },
  idempotentNeedsKey: {
    code: "E0227",
    title: "idempotent tool without idempotency_key",
    exact: true,
    text: (tool: string) => `Idempotent tool '${tool}' must specify an idempotency_key.`,
    explanation: "Idempotency is per key: without `idempotency_key` there is nothing to recognise a repeated call by (spec §4, exact message).",
    example: "tool pay(request_id: string) -> Out {\n  idempotent: true\n}",
  },
  toolTimeoutPositive: {
    code: "E0228",
    title: "tool timeout must be positive",
    exact: true,
    text: (tool: string) => `Tool '${tool}' timeout must be greater than zero.`,
    explanation: "`timeout` is in milliseconds and must be greater than zero (spec §4, exact message).",
    example: "tool t(a: int) -> Out { timeout: 0 }",
  },
  // lazy tools (docs/language/tools.md "Lazy tools")
  searchToolsNameTaken: {
    code: "E0275",
    title: "a tool named search_tools next to lazy tools",
    text: (agent: string) => `Agent '${agent}' has lazy tools, so 'search_tools' is the name of the tool the model finds them with; rename this tool.`,
    explanation: "While an agent has lazy tools (`lazy: true`), its model is offered a synthetic tool, `search_tools(query)`, that finds them. A tool of the agent's own with that name would be shadowed: rename it, or make none of the agent's tools lazy.",
    example: 'schema Out { ok: bool }\nmodel M { provider: "openai", name: "gpt-5.4-mini" }\ntool search_tools(q: string) -> Out {}\ntool refund(id: string) -> Out { description: "Refunds an order"  lazy: true }\nagent A {\n  model: M\n  tools: [search_tools, refund]\n}',
  },
  lazyToolDescription: {
    code: "E0276",
    title: "lazy tool without a description",
    text: (tool: string) => `Lazy tool '${tool}' needs a description: the model finds lazy tools by their name, parameters and description.`,
    explanation: "A lazy tool is not declared to the model up front: the model finds it by calling `search_tools` with a few words, which are matched against each lazy tool's name, parameter names and `description`, and the result shows the description. Without one, the tool is found by its name alone and the model is not told what it does: add `description`.",
    example: 'schema Out { ok: bool }\ntool refund(id: string) -> Out { lazy: true }',
  },
} as const satisfies Record<string, WordedEntry>;
