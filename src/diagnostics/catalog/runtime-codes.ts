/**
 * The spec's runtime error codes (§9): a failure while the program runs (exit code 1 when
 * nothing catches it), printed as `Error: [CODE] message` and seen by `catch e` as
 * `e.code`. They are stable already; these entries are what `luma explain CODE` prints.
 * Beside them, the codes Luma's own handlers throw as LumaToolErrors (the MCP bridge's,
 * src/mcp/): a user meets them the same way. A test keeps this list equal to the `ErrorCode`
 * type of luma-error.ts plus every code literal an error construction in src/ carries.
 */
import type { CatalogEntry } from "./catalog-entry";

const RUNTIME_ENTRIES = [
  {
    code: "TOOL_NOT_FOUND",
    title: "tool not found in the registry",
    explanation: "Step 1 of the tool pipeline: the called tool has no handler at call time. Start-up normally reports a missing handler first (E0601).",
    example: "x = tool lookup({ q: \"a\" })",
  },
  {
    code: "TOOL_PERMISSION_DENIED",
    title: "tool call not permitted",
    explanation:
      "Steps 2–5: the tool's `credential` environment variable is unset, its `scope` is not in the agent's `tool_scopes`, the agent's `tool_policy` is \"deny_write\" for a write tool, or \"approval\" and the call was not approved (LUMA_APPROVED_TOOLS or the prompt). Not retryable.",
    example: 'tool send(to: string) -> Out {\n  side_effects: "write"\n  credential: "MAIL_TOKEN"\n}',
  },
  {
    code: "TOOL_INPUT_INVALID",
    title: "tool input does not match the parameters",
    explanation: "Step 6: the input object fails the tool's parameter schema (a missing or extra field, a wrong type, a broken hard rule). The details name each field.",
    example: 'p = { a: "one", b: 2 }\nx = tool calculate(p)',
  },
  {
    code: "TOOL_CONTEXT_INVALID",
    title: "needs not provided or of the wrong shape",
    explanation: "Step 7: a `needs` dependency is not in the agent's `tool_contexts`, not in luma.config.json's `tool_contexts`, or does not match its declared schema. Its values never appear in the message.",
    example: "tool lookup(q: string) -> Answer {\n  needs db: Db\n}",
  },
  {
    code: "TOOL_IDEMPOTENCY_CONFLICT",
    title: "idempotency key reused with a different input",
    explanation: "Step 9: a call with an idempotency key already recorded for another input. The same key and the same input replay the stored result; a different input is refused, since the write may already have happened.",
    example: 'tool pay(request_id: string, amount: float) -> Out {\n  side_effects: "write"\n  idempotent: true\n  idempotency_key: request_id\n}',
  },
  {
    code: "TOOL_TIMEOUT",
    title: "tool call timed out",
    explanation: "Step 10: the handler ran longer than the effective timeout, min(tool `timeout` ?? agent `tool_timeout`, agent `tool_timeout_max`) ms. Its AbortSignal is aborted. Retryable: it is retried up to `retries`.",
    example: "tool slow(q: string) -> Answer { timeout: 1000 }",
  },
  {
    code: "TOOL_SANDBOX_FAILED",
    title: "a tool module's process died during the call",
    explanation:
      "Under `tool_module_policy.sandbox: \"process\"` each tool module runs in its own confined child process. It crashed, exited, was killed (from outside, out of memory, past its CPU time), wrote bytes outside the protocol on its channel, or ignored its AbortSignal for the grace period (`kill_grace_ms`, default 1000) after its timeout and was killed. Only the call in flight fails; the message names the module and how it died. Retryable: the next call starts a fresh process, which loads the module again.",
    example: '{ "tool_module_policy": { "sandbox": "process" }, "tool_modules": ["./tools.ts"] }\n// tools.ts: export const crash = () => process.kill(process.pid, "SIGSEGV");',
  },
  {
    code: "TOOL_OUTPUT_INVALID",
    title: "tool result does not match its return schema",
    explanation: "Step 11: the handler returned a value its return schema rejects; the details name each field. The result is not cached or recorded.",
    example: "tool lookup(q: string) -> Answer {}\n// handler returns { answer: 42 } for Answer { answer: string }",
  },
  {
    code: "CLIENT_TOOL_UNANSWERED",
    title: "client tool call that nobody can answer",
    explanation:
      "A tool declared `handler: \"client\"` has no host handler: the caller answers each call with a value of its return type — `luma runs answer` in a journaled run (which stops with exit 75 until then), the terminal's prompt when stdin is interactive, or the MCP client's elicitation under `luma mcp`. Without any of these (a non-interactive run without a journal, an MCP client without elicitation), or when the person declines, the call fails with this error. Not retryable.",
    example: 'tool confirm_address(address: Address) -> Confirmed { handler: "client" }\n// luma app.luma < /dev/null   (no terminal, no journal)',
  },
  {
    code: "TOOL_ERROR_INVALID",
    title: "thrown tool error does not match the error schema",
    explanation: "The tool declares `error: Schema` and its handler threw a LumaToolError that the schema rejects.",
    example: "tool save(id: string) -> Out { error: ToolError }",
  },
  {
    code: "TOOL_CIRCUIT_OPEN",
    title: "circuit breaker open",
    explanation: "Within one agent method call, tool failures reached the agent's `tool_failure_limit`; that failure and every later tool call of the same method call fail at once, without running the handler. Not retryable.",
    example: "agent A {\n  tool_failure_limit: 3\n}",
  },
  {
    code: "TOOL_RATE_LIMITED",
    title: "native tool calls over the agent's rate limit",
    explanation: "The model asked for more tool calls in one `ask` than the agent's `tool_rate_limit` allows; the model is told and must answer without them.",
    example: "agent A {\n  tool_rate_limit: 2\n}",
  },
  {
    code: "TOOL_HANDLER_ERROR",
    title: "handler threw a plain error",
    explanation: "The handler threw an error that is not a LumaToolError (a plain `throw new Error(…)`); it becomes this code with `retryable: false`. Throw a LumaToolError to choose the code and retryability.",
    example: 'export const lookup = () => { throw new Error("boom"); };',
  },
  {
    code: "TOOL_NOT_ACTIVE",
    title: "a tool's `when` condition is false",
    explanation:
      "The agent lists the tool as `tools: [t when COND]` and COND, evaluated over the agent's parameters for this method call, is false: a direct call from one of its methods fails with this error, naming the tool, the agent and the condition. Not retryable (the parameters do not change during the call) — unlike TOOL_UNAVAILABLE, a server that is down. In an `ask` the tool is not offered to the model, and a native call of it gets a \"not available\" tool result instead.",
    example: "agent Support(user: User) {\n  tools: [issue_refund when user.can_refund]\n  fn refund(id: int) -> Refund { tool issue_refund({ id: id }) }\n}",
  },
  {
    code: "HANDOFF_NOT_MADE",
    title: "a second transfer in one model turn",
    explanation:
      "An agent's model called two `transfer_to_<Agent>` tools in one turn (docs/language/multi-agent.md § Handoffs). The first, in the model's order, is made; each other one gets this error as its tool result (not retryable), naming the agent the conversation went to. It never ends the `ask`: the model only reads it.",
    example: "agent Triage {\n  model: M\n  handoffs: [Refunds, Billing]\n  fn run(text: string) -> string { ask text -> string }\n}",
  },
  {
    code: "AGENT_DEPTH_EXCEEDED",
    title: "agents calling agents went deeper than max_agent_depth",
    explanation:
      "An agent lists a method of another agent in its `tools` (docs/language/multi-agent.md), and the model's call of it would run deeper than the config's `max_agent_depth` (default 4; the outermost agent method call is depth 1, each agent called as a tool one more). The message names the method and the limit. Not retryable: it ends the outer `ask` like any non-retryable tool error, and `try` can catch it. Raise `max_agent_depth` in luma.config.json if the nesting is meant.",
    example: "agent Echo {\n  model: M\n  tools: [Echo.run]\n  fn run(text: string) -> string { ask text -> string }\n}",
  },
  {
    code: "BUDGET_EXCEEDED",
    title: "an agent's budget_tokens or budget_usd was used up",
    explanation:
      "An agent declares `budget_tokens` (input + output tokens, cached input included) or `budget_usd` (from the models' prices), bounding one call into it from outside, sub-agents included (docs/language/multi-agent.md). Usage is counted after each provider response; the response that crosses the budget is not used, and the work stops with this error, naming the key, the limit, the amount used and the agent. Not retryable; `try` can catch it.",
    example: "agent Writer {\n  model: M\n  budget_tokens: 1000\n  fn run(text: string) -> string { ask text -> string }\n}",
  },
  {
    code: "TOOL_UNAVAILABLE",
    title: "a tool's MCP server is down",
    explanation:
      "A tool declared with `mcp: \"server\"` was called while its server could not take the call: the connection closed during the call (the server exited or the HTTP stream ended), the server was down and reconnecting failed, or the run is shutting down. Retryable: the tool's `retries` apply, and the next call to a server whose connection closed restarts (stdio) or reconnects (HTTP) it first. Only that server's tools fail; other servers and tools keep working.",
    example: 'tool search(q: string) -> Hits { mcp: "docs" }   // the docs server exits during the call',
  },
  {
    code: "MCP_ERROR",
    title: "an MCP server refused the tool call",
    explanation:
      "The `tools/call` failed with a protocol error other than a closed connection: the server answered with a JSON-RPC error (invalid params, an internal error…), or its result broke the tool's own `outputSchema`. The message names the server and tool and quotes the server's error (at most 500 characters). Not retryable; the connection stays up for the server's other tools.",
    example: 'tool search(q: string) -> Hits { mcp: "docs" }   // the server answers with JSON-RPC error -32602',
  },
  {
    code: "MCP_TOOL_ERROR",
    title: "an MCP tool reported an error",
    explanation:
      "The server's tool returned `isError: true` with a text that is not a Luma error body. (A `{\"code\", \"message\", \"retryable\", \"details\"}` JSON body, as `luma mcp` sends, keeps its own code instead.) The message names the server and tool and quotes the text (at most 500 characters). Not retryable.",
    example: 'tool search(q: string) -> Hits { mcp: "docs" }   // the tool answers { isError: true, content: [{ type: "text", text: "index offline" }] }',
  },
  {
    code: "MCP_RESULT_UNFIT",
    title: "an MCP tool's result holds content its contract cannot take",
    explanation:
      "The server answered with image, audio, resource or resource-link content, and the tool's return schema has no `content` field to take it (it is `{ text: string }` or a schema of its own without `structuredContent` to read). Rather than drop that content, the call fails, naming the server, the tool and the content types. Give the return schema `content: McpContent[]` — `McpResult`, which `luma mcp import` writes, takes every type. Not retryable.",
    example: 'schema T { text: string }\ntool tiny_image() -> T { mcp: "everything"  mcp_tool: "get-tiny-image" }',
  },
  {
    code: "ASK_OUTPUT_INVALID",
    title: "model answer does not match the ask target",
    explanation: "The model's final answer is not valid JSON for the `ask … -> Type` target, after the retries (`retries` of the agent). The details hold the validation issues.",
    example: 'ask "Give me a number" -> Answer',
  },
  {
    code: "PROVIDER_ERROR",
    title: "model provider request failed",
    explanation: "A request to the model provider failed: a missing API key, an HTTP error status, a timeout (`timeout` of the model, `ask_timeout` of the agent), a malformed answer. API keys never appear in the message.",
    example: 'model M { provider: "openai", name: "gpt-4o" }   (OPENAI_API_KEY unset)',
  },
  {
    code: "QUERY_ROW_INVALID",
    title: "query row does not match its schema",
    explanation: "A row returned by a query or command fails the declared row schema; the message names the 0-based row index and the field.",
    example: 'query top() -> Customer[] { source: Db  sql: "SELECT id FROM customers" }',
  },
  {
    code: "VALUE_INVALID",
    title: "value does not match its declared type",
    explanation: "A typed assignment (`x: T = …`) or a fn's return value fails its declared type at run time. The details name each field.",
    example: 'x: Answer = { answer: 42 }',
  },
  {
    code: "THREAD_CONFLICT",
    title: "another process appended to the thread first",
    explanation: "`ask … in t` on a stored thread reads the thread, asks, then appends its exchange only if nobody appended in between (a version check). When another process's ask on the same thread finished first, this ask fails with THREAD_CONFLICT and appends nothing, so two conversations never interleave. Retryable: asking again sends the thread as it now is.",
    example: 'fn reply(t: Thread, text: string) -> string { ask text -> string in t }   (two processes on thread("customer-42") at once)',
  },
  {
    code: "STD_FILE_ERROR",
    title: "a luma:std file tool could not do it",
    explanation:
      "read_file, list_dir or write_file (luma:std, docs/language/std-tools.md) met a file that does not exist, a directory where a file was meant (or the other way), a file larger than 1048576 bytes or not UTF-8 text. `details.reason` says which (not_found, is_directory, not_a_directory, not_a_file, too_large, not_text, unreadable, unwritable). Not retryable. A path outside std.files_root is TOOL_PERMISSION_DENIED instead.",
    example: 'import { read_file } from "luma:std"\nf = tool read_file({ path: "missing.txt" })',
  },
  {
    code: "STD_HTTP_ERROR",
    title: "a luma:std HTTP request failed",
    explanation:
      "http_get or http_send (luma:std) could not complete: the URL is not a URL, the connection failed (`details.reason` network, retryable), or the response body is larger than 1048576 bytes (too_large; nothing of it is returned). An HTTP error status is no failure: it is the result's `status`. A host not in std.http_hosts is TOOL_PERMISSION_DENIED instead.",
    example: 'import { http_get } from "luma:std"\nr = tool http_get({ url: "http://127.0.0.1:1/" })',
  },
  {
    code: "AGENT_NOT_FOUND",
    title: "luma serve: no such agent or method",
    explanation: "`POST /agents/{Agent}/{method}` or `POST /chat/{Agent}` names an agent (or method) the server does not serve: not in the program, left out by `--agent`, or declared with parameters. Answered with HTTP 404.",
    example: "curl -X POST http://127.0.0.1:8787/agents/Suport/reply -d '{}'",
  },
  {
    code: "REQUEST_INVALID",
    title: "luma serve: the request body is not what the endpoint takes",
    explanation: "`luma serve` takes a JSON object of named arguments (`/agents/…`) or the `useChat` body `{ id, messages }` (`/chat/…`), at most 1 MiB. A body that is not JSON, not an object, too large (HTTP 413) or missing the last user message is refused with HTTP 400 before anything runs.",
    example: "curl -X POST http://127.0.0.1:8787/agents/Support/reply -d 'not json'",
  },
  {
    code: "REQUEST_UNAUTHORIZED",
    title: "luma serve: missing or wrong bearer token",
    explanation: "A server started with LUMA_SERVE_TOKEN answers every request that does not carry `Authorization: Bearer <that token>` with HTTP 401, before it looks at anything else.",
    example: "LUMA_SERVE_TOKEN=s3cret luma serve app.luma --http 0.0.0.0:8787   (then a request without the header)",
  },
  {
    code: "REQUEST_FORBIDDEN",
    title: "luma serve: a browser page of another origin",
    explanation:
      "A browser sends `Origin` with every cross-origin request, and a page on any site can make one to a server it knows the address of — even to 127.0.0.1, even without reading the answer. `luma serve` therefore answers HTTP 403, before anything runs, to a request whose `Origin` is not the one `--cors ORIGIN` allows; clients that are not browsers send no `Origin` and are not concerned.",
    example: "a page on https://evil.example posting to http://127.0.0.1:8787/agents/Support/refund",
  },
  {
    code: "RUNTIME_ERROR",
    title: "runtime error",
    explanation: "Any other failure while the program runs: a field read on null, a division by zero, an index out of range, a value of the wrong kind for an operator. The message names the file:line:col.",
    example: "x = null\nprint(x.name)",
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type RuntimeCode = (typeof RUNTIME_ENTRIES)[number]["code"];

export const runtimeCodes: CatalogEntry[] = [...RUNTIME_ENTRIES];
