/**
 * The one command table of the `luma` binary: every option is declared once here (its
 * name, what value it takes, whether it repeats, its doc line, the command property it
 * sets), and every command lists the options it takes, in the order its help shows them.
 * Parsing (scan-argv.ts and each command's parser), the option lines of `luma --help`,
 * did-you-mean for an unknown option and `luma completion` are all read from it, so an
 * option cannot be accepted by one and missing from another. An option several commands
 * share (`--config`, `--tool-module`) is one row used by each; a command that means
 * something else by a name (`--format` of check, test and runs) has its own row.
 * (Files named `*-argv.ts` are the ones tests/docs/ops-pages.test.ts reads for the option
 * literals docs/cli.md must list: this one holds them.)
 */
import { UsageError } from "./usage-error";

/**
 * What an option takes: nothing (a flag), a file path, free text, or one of the choices
 * its metavar spells (`text|json`). Completion offers files or the choices from this.
 */
export type OptionValue = "nothing" | "file" | "text" | "choice";

export interface OptionRow {
  /** The option as typed, `--name`. */
  readonly name: string;
  /** Other spellings of it (`-o` for `--output`). */
  readonly aliases?: readonly string[];
  readonly value: OptionValue;
  /** The value as help writes it (`PATH`, `text|json`); none for a flag. */
  readonly metavar?: string;
  /** The help line. */
  readonly doc: string;
  /** Given again, it adds a value (the property is a list) instead of replacing it. */
  readonly repeatable?: true;
  /** The parsed command's property it sets (`true` for a flag). */
  readonly field: string;
  /** Checks and converts the value; `more` reads one further argument (`--format junit FILE`). */
  readonly read?: (value: string, more: () => string) => unknown;
  /** The command refuses to run without it (help shows it bare, not in brackets). */
  readonly required?: true;
  /** Decided when `luma build` writes an agent: a built agent refuses it (run-built-agent.ts). */
  readonly buildTime?: true;
}

const mustBeWholeMs = (v: string): number => {
  // At most 2^31-1: a longer timer would fire at once.
  if (!/^[0-9]+$/.test(v) || Number(v) < 1 || Number(v) > 2 ** 31 - 1) throw new UsageError(`--timeout of luma test must be a whole number of ms from 1 to 2147483647 (got '${v}')`);
  return Number(v);
};

/** `text`: diagnostics for people (stderr); `json`: one JSON object for editors and CI (stdout). */
export const CHECK_FORMATS = ["text", "json"] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

// The rows, each declared once. Shared ones first, then those of one command.
const TOOL_MODULE: OptionRow = {
  name: "--tool-module", value: "file", metavar: "PATH", doc: "load a tool module (repeatable)", repeatable: true, field: "toolModules", buildTime: true,
};
const CONFIG: OptionRow = { name: "--config", value: "file", metavar: "PATH", doc: "use this luma.config.json", field: "config" };
const TRACE: OptionRow = { name: "--trace", value: "file", metavar: "FILE|-", doc: "write trace events as JSON Lines (- for stderr)", field: "trace" };
const JOURNAL: OptionRow = { name: "--journal", value: "file", metavar: "PATH", doc: "journal the run in this SQLite file (resume with --run-id)", field: "journal" };
const RUN_ID: OptionRow = { name: "--run-id", value: "text", metavar: "ID", doc: "the run's id in the journal: resumes it when it exists", field: "runId" };

const RUN_OPTIONS: readonly OptionRow[] = [
  TOOL_MODULE,
  CONFIG,
  TRACE,
  { name: "--record", value: "file", metavar: "FILE", doc: "save every model request and answer to a cassette (JSON Lines)", field: "record" },
  { name: "--replay", value: "file", metavar: "FILE", doc: "answer model requests from a cassette, offline (no API key)", field: "replay" },
  JOURNAL,
  RUN_ID,
  { name: "--usage", value: "nothing", doc: "print a per-model token usage (and cost) table on stderr when the run ends", field: "usage" },
  { name: "--generate-tool-types", value: "file", metavar: "OUT.d.ts", doc: "write TypeScript types for the tools, do not run", field: "generateToolTypes", buildTime: true },
];

const CHECK_FORMAT: OptionRow = {
  name: "--format", value: "choice", metavar: CHECK_FORMATS.join("|"), doc: "json: one object {\"diagnostics\":[…]} on stdout, for editors and CI", field: "format",
  read(v) {
    if (!(CHECK_FORMATS as readonly string[]).includes(v)) throw new UsageError(`--format must be ${CHECK_FORMATS.join(" or ")} (got '${v}')`);
    return v;
  },
};

const MCP_SERVE_OPTIONS: readonly OptionRow[] = [
  { name: "--agent", value: "text", metavar: "NAME", doc: "serve this agent's tools and methods, under its settings", field: "agent" },
  { name: "--agent-args", value: "text", metavar: "JSON", doc: "the served agent's parameters, a JSON object (agent Name(p: T))", field: "agentArgs" },
  { name: "--http", value: "text", metavar: "HOST:PORT", doc: "serve Streamable HTTP at http://HOST:PORT/mcp (default: stdio)", field: "http" },
  { name: "--allowed-hosts", value: "text", metavar: "H[:P],…", doc: "Host names clients use with --http (needed off loopback, with LUMA_MCP_TOKEN)", field: "allowedHosts" },
  TOOL_MODULE,
  CONFIG,
  TRACE,
];

/** `luma chat` (issue #26 §3): which agent answers, through which method, in which thread. */
const CHAT_OPTIONS: readonly OptionRow[] = [
  { name: "--agent", value: "text", metavar: "NAME", doc: "the agent that answers each line", field: "agent", required: true },
  { name: "--method", value: "text", metavar: "NAME", doc: "answer through this method, (Thread, string) -> string (default: the agent's own model)", field: "method" },
  { name: "--thread", value: "text", metavar: "ID", doc: "continue the stored thread ID (the \"threads\" store; default: a new one in memory)", field: "thread" },
  { name: "--agent-args", value: "text", metavar: "JSON", doc: "the agent's parameters, a JSON object (agent Name(p: T))", field: "agentArgs" },
  TOOL_MODULE,
  CONFIG,
  TRACE,
  { name: "--record", value: "file", metavar: "FILE", doc: "save every model request and answer to a cassette (JSON Lines)", field: "record" },
  { name: "--replay", value: "file", metavar: "FILE", doc: "answer model requests from a cassette, offline (no API key)", field: "replay" },
];

/** `luma serve` (issue #26 §4): where to listen, which agents, which browser origin. */
const SERVE_OPTIONS: readonly OptionRow[] = [
  { name: "--http", value: "text", metavar: "HOST:PORT", doc: "listen here (default 127.0.0.1:8787; off loopback needs LUMA_SERVE_TOKEN)", field: "http" },
  { name: "--agent", value: "text", metavar: "NAME", doc: "serve only this agent (repeatable; default: every agent without parameters)", repeatable: true, field: "agents" },
  { name: "--cors", value: "text", metavar: "ORIGIN", doc: "let pages of this origin call from a browser (CORS; default: none)", field: "cors" },
  { name: "--agent-args", value: "text", metavar: "AGENT=JSON", doc: "fix the parameters of an agent declared with them (repeatable; default: each request's \"$agent\")", repeatable: true, field: "agentArgs" },
  TOOL_MODULE,
  CONFIG,
  TRACE,
];

const BUILD_OPTIONS: readonly OptionRow[] = [
  { name: "--output", aliases: ["-o"], value: "file", metavar: "OUT", doc: "the executable to write", field: "out" },
  TOOL_MODULE,
  CONFIG,
  { name: "--target", value: "text", metavar: "T", doc: "a bun build --compile target (bun-linux-arm64…); the host's when absent", field: "target" },
];

const TEST_OPTIONS_ROWS: readonly OptionRow[] = [
  { name: "--filter", value: "text", metavar: "TEXT", doc: "run only the tests whose name contains TEXT", field: "filter" },
  {
    name: "--format", value: "text", metavar: "junit FILE", doc: "also write a JUnit XML report to FILE (for CI systems)", field: "junit",
    read(v, more) {
      if (v !== "junit") throw new UsageError(`--format of luma test must be junit (got '${v}')`);
      return more();
    },
  },
  TOOL_MODULE,
  CONFIG,
  { name: "--timeout", value: "text", metavar: "MS", doc: "stop and fail a test still running after MS ms (default 30000)", field: "timeoutMs", read: mustBeWholeMs },
];

/** `luma eval`'s options (issue #31 §2, docs/eval.md). */
const EVAL_OPTIONS_ROWS: readonly OptionRow[] = [
  {
    name: "--format", value: "text", metavar: "junit|json FILE", doc: "also write the report to FILE, as JUnit XML or JSON", repeatable: true, field: "reports",
    read(v, more) {
      if (v !== "junit" && v !== "json") throw new UsageError(`--format of luma eval must be junit or json (got '${v}')`);
      return { format: v, file: more() };
    },
  },
  {
    name: "--min", value: "text", metavar: "NAME=VALUE", doc: "fail (exit 1) when score NAME's mean is below VALUE, in [0, 1]", repeatable: true, field: "mins",
    read(v) {
      const m = /^([^=]+)=([0-9]*\.?[0-9]+)$/.exec(v);
      const bar = m ? Number(m[2]) : NaN;
      if (!m || !(bar >= 0 && bar <= 1)) throw new UsageError(`--min takes NAME=VALUE with VALUE in [0, 1], e.g. --min route=0.9 (got '${v}')`);
      return { score: m[1], bar };
    },
  },
  {
    name: "--model", value: "text", metavar: "AGENT=MODEL", doc: "also run every case with AGENT on MODEL, side by side", field: "modelSwap",
    read(v) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=([A-Za-z_][A-Za-z0-9_]*)$/.exec(v);
      if (!m) throw new UsageError(`--model takes AGENT=MODEL, an agent and a model of the program (got '${v}')`);
      return { agent: m[1], model: m[2] };
    },
  },
  {
    name: "--concurrency", value: "text", metavar: "N", doc: "run at most N cases at once (default 8)", field: "concurrency",
    read(v) {
      if (!/^[0-9]+$/.test(v) || Number(v) < 1 || Number(v) > 1000) throw new UsageError(`--concurrency of luma eval must be a whole number from 1 to 1000 (got '${v}')`);
      return Number(v);
    },
  },
  { name: "--record", value: "file", metavar: "FILE", doc: "save every model request and answer to a cassette (JSON Lines)", field: "record" },
  { name: "--replay", value: "file", metavar: "FILE", doc: "answer model requests from a cassette, offline (no API key)", field: "replay" },
  TOOL_MODULE,
  CONFIG,
];

// The journal's subcommands: which run, which step, which journal (else the config's).
const RUN_TO_DECIDE: OptionRow = { ...RUN_ID, doc: "the run whose call waits for approval", required: true };
const STEP: OptionRow = { name: "--step", value: "text", metavar: "STEP", doc: "the waiting call's step (when the run waits on more than one)", field: "step" };
const JOURNAL_TO_READ: OptionRow = { ...JOURNAL, doc: "the journal's SQLite file (default: the config's journal)" };
const RUNS_FORMAT: OptionRow = { name: "--format", value: "choice", metavar: "table|json", doc: "table for people, json for scripts", field: "format" };
const RUNS_OPTIONS: readonly OptionRow[] = [JOURNAL_TO_READ, CONFIG, RUNS_FORMAT];
const DIGEST: OptionRow = { name: "--digest", value: "text", metavar: "D", doc: "decide only the call with these arguments (its digest)", field: "digest" };
/** The person's value: an approval's note (`approval: Schema`), a client tool's answer. */
const NOTE_JSON: OptionRow = { name: "--json", value: "text", metavar: "JSON", doc: "the note the tool's approval schema asks for (approval: Schema)", field: "json" };
const ANSWER_JSON: OptionRow = { name: "--json", value: "text", metavar: "JSON", doc: "the answer: a value of the client tool's return schema", field: "json", required: true };
const RUN_TO_ANSWER: OptionRow = { ...RUN_ID, doc: "the run whose client tool call waits for an answer", required: true };

// `luma ui`: what it shows (journals and traces, each repeatable) and where it listens.
const UI_OPTIONS: readonly OptionRow[] = [
  { ...JOURNAL, doc: "show the runs of this journal's SQLite file (repeatable; without --journal or --trace: the config's journal)", field: "journals", repeatable: true },
  { name: "--trace", value: "file", metavar: "FILE", doc: "show the run a trace file holds (repeatable)", field: "traces", repeatable: true },
  CONFIG,
  { name: "--http", value: "text", metavar: "HOST:PORT", doc: "listen here (default 127.0.0.1:4780; another address needs LUMA_UI_TOKEN)", field: "http" },
];

/** `luma store reset --config` refuses an empty value, as a missing one. */
const STORE_CONFIG: OptionRow = {
  ...CONFIG,
  read(v) {
    if (v === "") throw new UsageError("option --config needs a value (PATH)");
    return v;
  },
};

export interface CommandEntry {
  /** How it is typed after `luma` (empty for `luma FILE`). */
  readonly words: string;
  /** One line for completion menus. */
  readonly summary: string;
  /** Its options, in the order its help lists them. */
  readonly options: readonly OptionRow[];
}

const TABLE = {
  run: { words: "", summary: "run the program", options: RUN_OPTIONS },
  check: { words: "check", summary: "parse and check only", options: [CHECK_FORMAT] },
  test: { words: "test", summary: "run the test blocks of *.test.luma files, offline", options: TEST_OPTIONS_ROWS },
  eval: { words: "eval", summary: "run the eval blocks of *.eval.luma files over their datasets, and score them", options: EVAL_OPTIONS_ROWS },
  init: { words: "init", summary: "scaffold a project that runs and tests offline", options: [] },
  explain: { words: "explain", summary: "explain a diagnostic code", options: [] },
  fmt: {
    words: "fmt", summary: "rewrite .luma files in the one layout",
    options: [{ name: "--check", value: "nothing", doc: "write nothing: list the files that would change, exit 1", field: "check" }],
  },
  build: { words: "build", summary: "write one executable running the program", options: BUILD_OPTIONS },
  mcp: { words: "mcp", summary: "serve the program's tools and agent methods over MCP", options: MCP_SERVE_OPTIONS },
  chat: { words: "chat", summary: "chat with an agent in the terminal, one line per message", options: CHAT_OPTIONS },
  serve: { words: "serve", summary: "serve agents over HTTP: JSON calls and useChat streams", options: SERVE_OPTIONS },
  "mcp-import": { words: "mcp import", summary: "print Luma declarations for an MCP server's tools", options: [CONFIG] },
  lsp: {
    words: "lsp", summary: "the language server (LSP over stdio)",
    options: [{ name: "--stdio", value: "nothing", doc: "accepted and ignored: stdio is the only transport", field: "stdio" }],
  },
  runs: { words: "runs", summary: "list a journal's runs and the calls waiting for a person", options: RUNS_OPTIONS },
  "runs-show": { words: "runs show", summary: "one run's steps", options: RUNS_OPTIONS },
  "runs-answer": {
    words: "runs answer", summary: "answer a client tool's call that waits (handler: \"client\")",
    options: [RUN_TO_ANSWER, STEP, ANSWER_JSON, DIGEST, JOURNAL_TO_READ, CONFIG],
  },
  // No --digest for deny: only an approval pins the call's arguments; a refusal refuses whatever waits.
  approve: {
    words: "approve", summary: "approve a call that waits for approval",
    options: [RUN_TO_DECIDE, STEP, { ...DIGEST, doc: "approve only the call with these arguments (its digest)" }, NOTE_JSON, JOURNAL_TO_READ, CONFIG],
  },
  deny: { words: "deny", summary: "refuse a call that waits for approval", options: [RUN_TO_DECIDE, STEP, JOURNAL_TO_READ, CONFIG] },
  "store-reset": {
    words: "store reset", summary: "move a refused file/sqlite idempotency store aside",
    options: [{ name: "--yes", value: "nothing", doc: "move it (without: only say what would move)", field: "yes" }, STORE_CONFIG],
  },
  completion: { words: "completion", summary: "print a shell completion script", options: [] },
  ui: { words: "ui", summary: "a local web app: runs, timelines, approvals, usage, threads", options: UI_OPTIONS },
} satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof TABLE;
/** Every command, keyed by the `kind` its parser returns (`luma FILE` is `run`). */
export const COMMAND_TABLE: Readonly<Record<CommandName, CommandEntry>> = TABLE;

/**
 * The words `luma` dispatches on, as typed first (`help` and `version` are the word
 * aliases of `--help` and `--version`); tests/cli/command-table.test.ts holds them to the
 * table's first words.
 */
export const COMMAND_WORDS = new Set(["check", "test", "eval", "init", "explain", "fmt", "build", "mcp", "chat", "serve", "lsp", "runs", "approve", "deny", "store", "completion", "ui", "help", "version"]);

/** The shells `luma completion` writes a script for. */
export const COMPLETION_SHELLS = ["bash", "zsh", "fish"] as const;

/** A built agent's own first argument (cli/run-built-agent.ts): print what the executable embeds. */
export const LUMA_MANIFEST_OPTION = "--luma-manifest";
/**
 * A built agent's first arguments that serve its program: `OUT --luma-serve …` is `luma serve
 * FILE …` on the embedded program (the command's own rows parse the rest), and so on.
 */
export const LUMA_SERVING_OPTIONS = { "--luma-serve": "serve", "--luma-chat": "chat", "--luma-mcp": "mcp" } as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** A command's options by every name they answer to (aliases included). */
export function optionsByName(rows: readonly OptionRow[]): ReadonlyMap<string, OptionRow> {
  const byName = new Map<string, OptionRow>();
  for (const row of rows) for (const name of [row.name, ...(row.aliases ?? [])]) byName.set(name, row);
  return byName;
}
