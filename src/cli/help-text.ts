/**
 * `luma --help`: the usage lines and the option lists, the latter written from the command
 * table (command-table-argv.ts, through journal-argv.ts for the journal's usage lines) so
 * the help cannot name an option a command refuses.
 */
import { COMMAND_TABLE, type OptionRow } from "./command-table-argv";
import { journalUsage } from "./journal-argv";
import { VERSION } from "../version";

/** The `--help` lines of Luma's options (all, or those named, in table order). */
export function optionLines(names?: readonly string[]): string {
  return listOptions(COMMAND_TABLE.run.options.filter((row) => !names || names.includes(row.name)));
}

const listOptions = (rows: readonly OptionRow[]): string => rows.map((row) => `  ${`${row.name} ${row.metavar ?? ""}`.padEnd(34)}${row.doc}`).join("\n");

export function helpText(): string {
  const opts = optionLines();
  return `luma ${VERSION} — a small typed language for LLM agents

Usage:
  luma FILE.luma [ARGS…]      run the program (ARGS become \`args\`; \`--\` ends option parsing)
  luma check FILE.luma        parse and check only
  luma test [PATH…] [--filter TEXT] [--format junit FILE] [--tool-module P]… [--config P] [--timeout MS]
                              run the test blocks of PATH's *.test.luma files (default .), offline
  luma eval [PATH…] [--format junit|json FILE]… [--min NAME=VALUE]… [--model AGENT=MODEL] [--concurrency N] [--record F | --replay F] [--tool-module P]… [--config P]
                              run the eval blocks of PATH's *.eval.luma files over their datasets, and score them
  luma init [DIR]             scaffold a project that runs and tests offline (DIR missing or empty)
  luma explain CODE           explain a diagnostic code (E0201, E0601, TOOL_TIMEOUT…); \`std\`: luma:std's contracts
  luma fmt [--check] PATH…    rewrite .luma files (directories: all under them) in the one layout; --check lists, exits 1
  luma build FILE.luma -o OUT [--tool-module PATH]… [--config PATH] [--target T]
                              write OUT, one executable running the program (see docs/build.md)
  luma mcp FILE.luma [--agent NAME [--agent-args JSON]] [--http HOST:PORT [--allowed-hosts H,…]] [--tool-module P]… [--config P] [--trace F]
                              serve the program's tools and agent methods over MCP (stdio by default)
  luma chat FILE.luma --agent NAME [--method M] [--thread ID] [--agent-args JSON] [--tool-module P]… [--config P] [--trace F] [--record F | --replay F]
                              chat with an agent: each line of stdin a message, the reply streamed; EOF or /exit ends
  luma serve FILE.luma [--http HOST:PORT] [--agent NAME]… [--agent-args AGENT=JSON]… [--cors ORIGIN] [--tool-module P]… [--config P] [--trace F]
                              serve agents over HTTP: POST /agents/A/m (JSON), POST /chat/A (useChat stream)
  luma mcp import NAME [--config P]
                              print Luma tool declarations for the tools of MCP server NAME
  luma lsp                    the language server (LSP over stdio) for editors: diagnostics, hover, completion…
  luma runs [show ID] ${journalUsage("runs")}
                              list a journal's runs and the calls waiting for a person, or one run's steps
  luma runs answer ${journalUsage("runs-answer")}
                              answer a client tool's call that waits (then run again with --run-id)
  luma approve ${journalUsage("approve")}
                              approve a call that waits for approval (then run again with --run-id)
  luma deny ${journalUsage("deny")}
                              refuse a call that waits for approval (then run again with --run-id)
  luma ui [--journal PATH]… [--trace FILE]… [--config P] [--http HOST:PORT]
                              a local web app: runs, timelines, approve/deny/answer, live runs, usage, threads (docs/ui.md)
  luma store reset [--yes] [--config P]
                              move a refused file/sqlite idempotency store aside (its calls run again)
  luma completion bash|zsh|fish
                              print a shell completion script (docs/cli.md#shell-completion)
  luma --version | --help

Options (before or after FILE):
${opts}

Options of luma check:
${listOptions(COMMAND_TABLE.check.options)}

Environment:
  NO_COLOR=1          plain diagnostics even on a terminal
  FORCE_COLOR=1       coloured diagnostics even when not a terminal (NO_COLOR wins)
  LUMA_NO_CACHE=1     do not read or write the parsed-program cache
  LUMA_DEBUG=1        add stack traces to errors (a crashed handler's own stack)
  LUMA_APPROVED_TOOLS comma-separated tools approved (tool_policy "approval", approval: true)
  LUMA_IDEMPOTENCY_KEY passphrase of an encrypted idempotency store and journal
  LUMA_BASE_URL_<MODEL> redirect a model (MODEL = its declaration name, upper-cased)
  LUMA_MCP_TOKEN      bearer token luma mcp --http requires (off loopback it must be set)
  LUMA_UI_TOKEN       token luma ui requires of every request (off loopback it must be set)
  LUMA_MCP_SESSION_IDLE_MS ms before luma mcp --http closes an idle session (default 1800000)
  LUMA_MCP_PAGE_SIZE  entries per page of luma mcp's lists (1-10000, default 100)
  LUMA_SERVE_TOKEN    bearer token luma serve requires (off loopback it must be set)
  LUMA_SERVE_DRAIN_MS ms luma serve lets requests in flight finish after SIGTERM (default 10000)
  LUMA_SERVE_READ_MS  ms luma serve gives a client to send a body, or an idle connection (default 10000)
  LUMA_SERVE_RESUME_MS ms a chat turn whose client left may be resumed before it is aborted (default 10000)
  OPENAI_API_KEY · AZURE_OPENAI_API_KEY (+ AZURE_OPENAI_ENDPOINT) · ANTHROPIC_API_KEY · GEMINI_API_KEY
                      default API key variables of the model providers (api_key_env overrides)
  OTEL_EXPORTER_OTLP_ENDPOINT · OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
                      export spans over OTLP/HTTP; also OTEL_EXPORTER_OTLP_PROTOCOL,
                      OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_SERVICE_NAME,
                      OTEL_RESOURCE_ATTRIBUTES, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT,
                      OTEL_BSP_SCHEDULE_DELAY (ms a span waits for its batch, default 1000);
                      traces-only OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, OTEL_EXPORTER_OTLP_TRACES_HEADERS,
                      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT win; OTEL_SDK_DISABLED=true turns export off
  LUMA_TOOL_HOST=1    internal: set only by luma's "process" sandbox (the binary serves a tool module's child)
  LUMA_TEST_LEASE_MS · LUMA_TEST_CRASH_AT=<point>[:<n>] · LUMA_TEST_HOST
                      test hooks: shorter idempotency leases; SIGKILL at a crash point;
                      the host name lease owners carry (one machine playing two)

Exit codes: 0 success · 1 runtime error · 2 rejected before running · 64 usage error
            · 75 a journaled run waits for an approval or a client tool's answer
`;
}
