/**
 * E06xx: the other reasons a program is rejected before its first statement (exit code 2):
 * the tool registry, datasource bridges, start-up rules of the runtime, files Luma reads
 * or writes for the run, idempotency stores.
 */
import type { CatalogEntry } from "./catalog-entry";
import { SERVE_ENTRIES, type ServeCode } from "./serve-codes";

const STARTUP_ENTRIES = [
  {
    code: "E0601",
    title: "tool is not registered",
    explanation:
      "Every declared tool needs a handler: from a tool module (--tool-module or luma.config.json) or a built-in default (calculate, text_stats). The program does not start without it (spec §10, exact message). Export a function under the tool's name.",
    example: "tool lookup(q: string) -> Answer {}\n// luma app.luma   (no module exports `lookup`)",
  },
  {
    code: "E0602",
    title: "tool registry conflict",
    explanation:
      "Two tool modules export a handler (or a datasource bridge) under the same name; Luma will not pick one for you (spec §10, exact message). A module may replace a built-in default, but not another module.",
    example: "luma app.luma --tool-module ./a.ts --tool-module ./b.ts   (both export `calculate`)",
  },
  {
    code: "E0603",
    title: "datasource has no usable bridge",
    explanation:
      "A declared datasource has no module bridge and no `url`/`url_env` (spec §12, exact message), or its `url_env` variable is not set, or its URL is neither `sqlite:PATH` nor `postgres://…`. Every datasource is reported at once.",
    example: "datasource Warehouse {}",
  },
  {
    code: "E0604",
    title: "cache on a tool that uses needs",
    explanation:
      "A tool with `needs` gets host dependencies (a connection, credentials) that are not part of its input, so a cache keyed by input could return another context's answer. Reported when the program starts (spec §4, exact message).",
    example: "schema Db { url: string }\ntool lookup(q: string) -> Answer {\n  cache: true\n  needs db: Db\n}",
  },
  {
    code: "E0605",
    title: "cassette cannot be read or written",
    explanation: "`--replay FILE` names a cassette that cannot be read or is not a Luma cassette, or `--record FILE` cannot be written.",
    example: "luma app.luma --replay ./missing.jsonl",
  },
  {
    code: "E0606",
    title: "trace file cannot be written",
    explanation: "`--trace FILE` names a file that cannot be created or opened for writing. Use `--trace -` for stderr.",
    example: "luma app.luma --trace /no-such-dir/trace.jsonl",
  },
  {
    code: "E0607",
    title: "idempotency store configuration incomplete",
    explanation:
      "The `idempotency_store` of luma.config.json lacks what its backend needs: a `url` or `url_env`, an environment variable that is set, a valid URL, or (with encryption) the passphrase in LUMA_IDEMPOTENCY_KEY.",
    example: '{ "idempotency_store": { "backend": "postgres", "url_env": "STORE_URL" } }   (STORE_URL not set)',
  },
  {
    code: "E0608",
    title: "idempotency store cannot be opened",
    explanation:
      "The store's file, directory or database cannot be created or opened (permissions, a path that is not a database, a server that refuses). Credentials in the cause are redacted.",
    example: '{ "idempotency_store": { "backend": "sqlite", "path": "/read-only/store.db" } }',
  },
  {
    code: "E0609",
    title: "idempotency store refused",
    explanation:
      "The store holds data this Luma must not use: it is not a Luma idempotency store, its header is malformed, it was written by a newer version, or it is encrypted and the passphrase is missing or wrong. A file or sqlite store that is corrupt, tampered, empty, not a regular file or too large is refused too: an empty store would run every recorded call again, so resetting is deliberate (`luma store reset`). Nothing is overwritten.",
    example: 'LUMA_IDEMPOTENCY_KEY=wrong luma app.luma   (store written with another key)',
  },
  {
    code: "E0610",
    title: "program file cannot be read",
    explanation: "The .luma file named on the command line does not exist or cannot be read.",
    example: "luma no-such-file.luma",
  },
  {
    code: "E0611",
    title: "generated types cannot be written",
    explanation: "`--generate-tool-types OUT.d.ts` cannot write OUT (a missing directory, permissions).",
    example: "luma app.luma --generate-tool-types /no-such-dir/tools.d.ts",
  },
  {
    code: "E0612",
    title: "generated type name used twice",
    explanation:
      "Type generation names each schema and each tool's Input/Needs/Handler types; two of them would get the same TypeScript name (a schema `LookupInput` and the input of tool `lookup`). Rename one.",
    example: "schema LookupInput { q: string }\ntool lookup(q: string) -> LookupInput {}",
  },
  {
    code: "E0613",
    title: "schema the compiler cannot build",
    explanation:
      "A schema reached the schema compiler with a problem the checker should have reported (an unknown name, a cycle, a bad annotation), for example from a stale program cache. Run `luma check`, or set LUMA_NO_CACHE=1; please report it if it persists.",
    example: "LUMA_NO_CACHE=1 luma app.luma",
  },
  {
    code: "E0614",
    title: "formatted file cannot be written",
    explanation:
      "`luma fmt` formatted the file but cannot replace it (permissions, a read-only directory, a full disk). The file is left as it was: the new text goes to a temporary file first, which is removed.",
    example: "luma fmt /read-only/app.luma",
  },
  {
    code: "E0615",
    title: "schema a provider's strict mode cannot take",
    explanation:
      "An `ask` answer or a tool input is past what the agent's provider documents for strict schemas: OpenAI's size limits (10 levels of object nesting, 5000 properties, 1000 enum values, 120,000 characters of names and values), or, for Anthropic's structured output, a field of type `any` or more optional/union-typed fields than a request may hold. Every request would be rejected, so the program does not start. Split or simplify the schema. docs/providers/strict-schemas.md lists each provider's limits.",
    example: 'model M { provider: "anthropic"  name: "claude-sonnet-4-5" }\nschema Answer { data: any }\nagent A { model: M  fn go() -> Answer { ask "…" -> Answer } }',
  },
  {
    code: "E0616",
    title: "agent names a tool context that is not configured",
    explanation:
      "An agent's `tool_contexts` list names a context that luma.config.json's `tool_contexts` does not define. It could never be granted to a tool's `needs`, so the program does not start; the closest configured name is suggested.",
    example: 'agent Reporter {\n  tool_contexts: ["dbb"]   // luma.config.json defines "db"\n}',
  },
  {
    code: "E0617",
    title: "recursive ask answer on a provider that cannot take one",
    explanation:
      "An `ask` wants a schema that refers to itself (a tree of comments), and the agent's provider cannot take a recursive schema as structured output (Anthropic's strict mode has no `$ref`). Every such request would fail, so the program does not start and no request is sent. Use a model of a provider that can (OpenAI, Azure, Gemini, openai-compatible), or an answer schema that does not refer to itself; a recursive tool input is fine on every provider.",
    example: 'model M { provider: "anthropic"  name: "claude-sonnet-4-5" }\nschema Node { label: string  children: Node[] }\nagent A { model: M  fn go() -> Node { ask "…" -> Node } }',
  },
  {
    code: "E0650",
    title: "luma init: the directory is not empty",
    explanation:
      "`luma init DIR` scaffolds a new project and never overwrites anything: DIR must be missing or empty. Nothing was written. Pick a new directory, or empty this one.",
    example: "luma init .   (in a folder that already holds files)",
  },
  {
    code: "E0651",
    title: "luma init: a file cannot be written",
    explanation: "`luma init DIR` could not create DIR or one of the project's files (permissions, a read-only disk). What was written before the failure is named in the message.",
    example: "luma init /read-only/project",
  },
  {
    code: "E0652",
    title: "luma test: the JUnit report cannot be written",
    explanation: "`luma test --format junit FILE` ran the tests but could not write FILE (a missing directory, permissions).",
    example: "luma test --format junit /no-such-dir/report.xml",
  },
  {
    code: "E0653",
    title: "luma fmt: a file it cannot format faithfully",
    explanation:
      "`luma fmt` checks its own output: it must parse to the same program and hold the same comments. When it does not, or the formatter has no layout for a construct, the file is left exactly as it was and named in the error. This is a formatter bug, not a mistake in the program: please report it with the file.",
    example: "luma fmt app.luma",
  },
  {
    code: "E0654",
    title: "luma mcp: an agent's parameter is missing from --agent-args",
    explanation:
      "`luma mcp FILE --agent NAME` serves an agent declared with parameters (`agent Support(user: User)`): every required parameter must be given, once, at start-up, as a JSON object: `--agent-args '{\"user\": {…}}'`. The message names the missing parameter.",
    example: "luma mcp app.luma --agent Support",
  },
  {
    code: "E0655",
    title: "luma mcp: --agent-args does not fit the agent's parameters",
    explanation:
      "`--agent-args` must be a JSON object whose keys are the served agent's parameters and whose values fit their types, as the arguments of a call `Support(user)` must; the message names the parameter and field (`Support.user.plan must be one of …`).",
    example: "luma mcp app.luma --agent Support --agent-args '{\"user\": {\"name\": \"Ada\"}}'",
  },
  {
    code: "E0656",
    title: "luma mcp: --agent-args for no agent with parameters",
    explanation: "`--agent-args` gives the parameters of the agent `--agent NAME` serves: it needs `--agent`, and that agent must be declared with parameters.",
    example: "luma mcp app.luma --agent-args '{\"user\": {}}'",
  },
  {
    code: "E0657",
    title: "a tool module exports a handler for a client tool",
    explanation:
      "A tool declared `handler: \"client\"` is answered by the caller (`luma runs answer`, the terminal, an MCP client's elicitation), never by a host handler. A tool module that exports a handler for it contradicts the declaration, and its handler would never run, so the program does not start. Remove the export, or remove `handler: \"client\"` to let the module answer.",
    example: 'tool confirm_address(address: Address) -> Confirmed { handler: "client" }\n// tools.ts: export const confirm_address = (input) => ({ ok: true })',
  },
  {
    code: "E0660",
    title: "thread(id) without a threads store",
    explanation:
      "`thread(id)` opens a stored conversation from the `\"threads\"` store of luma.config.json, and none is configured — every such call would fail, so the program does not start (`luma check` says so too). Configure one (`{ \"threads\": { \"backend\": \"sqlite\" } }`; also `file`, `postgres`, `redis`), or use `thread()` for a conversation kept in memory for the run.",
    example: 'agent A { model: M  fn go() -> string { ask "hi" -> string in thread("customer-42") } }   (no "threads" in luma.config.json)',
  },
  {
    code: "E0661",
    title: "threads store cannot be opened",
    explanation:
      "The `\"threads\"` store of luma.config.json cannot be used: a `url` or `url_env` is missing or unset, the file or database cannot be created or opened, it is not a Luma threads store, or its encryption does not match (encrypted without LUMA_IDEMPOTENCY_KEY, a wrong key, plain threads with `encryption` set). The store is left unchanged. Credentials in the cause are redacted.",
    example: '{ "threads": { "backend": "postgres", "url_env": "THREADS_URL" } }   (THREADS_URL not set)',
  },
  {
    code: "E0662",
    title: "luma chat: the agent or method cannot chat",
    explanation:
      "`luma chat FILE --agent A [--method m]` needs an agent A of the program; without `--method` it must declare a `model` (its model, system prompt and tools answer); with it, A must have a method m that takes `(Thread, string)` and returns `string` — called once per line with the chat's thread and the line.",
    example: "luma chat app.luma --agent Support --method reply   (reply(text: string) -> string: no Thread parameter)",
  },
  {
    code: "E0690",
    title: "an MCP server's OAuth secret variable is not set",
    explanation:
      "`mcp_servers.<name>.oauth` names the environment variable that holds the client's secret (`client_secret_env`) or signing key (`private_key_env`), so the config never holds it. The variable is unset or empty, so the server is not contacted.",
    example: '{ "mcp_servers": { "tickets": { "url": "https://mcp.example.com/mcp", "oauth": { "grant_type": "client_credentials", "client_id": "luma", "client_secret_env": "TICKETS_SECRET" } } } }',
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type StartupCode = (typeof STARTUP_ENTRIES)[number]["code"] | ServeCode;

export const startupCodes: CatalogEntry[] = [...STARTUP_ENTRIES, ...SERVE_ENTRIES];
