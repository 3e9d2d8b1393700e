/**
 * Command-line parsing (spec §15): the dispatcher from a command's first word to its
 * parser, and the parser of `luma FILE [ARGS…]` and `luma check FILE`. Every option comes
 * from the one command table (command-table-argv.ts) through the one scanner
 * (scan-argv.ts). Luma's own options are recognised before and after FILE, every other
 * argument after FILE goes to the program's `args` (but an option one slip from luma's own,
 * a usage error with did-you-mean), and `--` ends option parsing. Usage
 * errors are data (`UsageError`), turned into exit 64 by main.ts.
 */
import { parseBuildArgv, type BuildCommand } from "./build-argv";
import { COMMAND_TABLE, COMPLETION_SHELLS, type CheckFormat, type CompletionShell, type OptionRow } from "./command-table-argv";
import { parseDevLoopArgv, type DevLoopCommand } from "./dev-loop-argv";
import { parseFmtArgv, type FmtCommand } from "./fmt-argv";
import { parseJournalCommand, type JournalCommand } from "./journal-argv";
import { parseMcpArgv, type McpImportCommand, type McpServeCommand } from "./mcp-argv";
import { parseUiArgv, type UiCommand } from "./ui-argv";
import { parseChatArgv, type ChatCommand } from "./chat-argv";
import { parseServeArgv, type ServeCommand } from "./serve-argv";
import { scanArgv } from "./scan-argv";
import { parseStoreArgv, type StoreResetCommand } from "./store-argv";
import { UsageError } from "./usage-error";
import type { StartOptions } from "../runtime/start-program";

export { UsageError } from "./usage-error";
export { CHECK_FORMATS, type CheckFormat } from "./command-table-argv";
export type { McpImportCommand, McpServeCommand } from "./mcp-argv";
export type { ChatCommand } from "./chat-argv";
export type { ServeCommand } from "./serve-argv";

export interface RunCommand {
  kind: "run";
  file: string;
  args: string[];
  toolModules: string[];
  config?: string;
  trace?: string;
  generateToolTypes?: string;
  record?: string;
  replay?: string;
  journal?: string;
  runId?: string;
  /** `--usage`: the per-model token/cost table on stderr at the end. */
  usage?: boolean;
}

/** Parse and check only: no config, no tool modules (they are the runtime's business). */
export interface CheckCommand {
  kind: "check";
  file: string;
  format: CheckFormat;
}

export type Command =
  | RunCommand
  | CheckCommand
  /** Print the catalog entry of a diagnostic code. */
  | { kind: "explain"; code: string }
  /** Write a standalone executable running FILE (build-argv.ts). */
  | BuildCommand
  /** Rewrite files in the canonical layout, or `--check` them (fmt-command.ts). */
  | FmtCommand
  | McpServeCommand
  | McpImportCommand
  | ChatCommand
  | ServeCommand
  | { kind: "help" }
  | { kind: "version" }
  /** `luma lsp`: the language server over stdio (src/lsp/). */
  | { kind: "lsp" }
  /** `luma approve | deny | runs [show]`: the journal's subcommands (journal-argv.ts). */
  | JournalCommand
  /** `luma test [PATH…]`, `luma eval [PATH…]`, `luma init [DIR]` (dev-loop-argv.ts). */
  | DevLoopCommand
  /** `luma store reset [--yes]` (store-argv.ts). */
  | StoreResetCommand
  /** `luma ui [--journal PATH]… [--trace FILE]… [--config P] [--http HOST:PORT]` (ui-argv.ts). */
  | UiCommand
  /** `luma completion bash|zsh|fish`: print a completion script derived from the command table. */
  | { kind: "completion"; shell: CompletionShell };

/** An option as `--help` and the docs test read it: does it take a value, what is it called. */
export interface OptionView {
  takesValue: boolean;
  help: string;
  metavar?: string;
  buildTime?: true;
}

const view = (rows: readonly OptionRow[]): Record<string, OptionView> =>
  Object.fromEntries(rows.map((r) => [r.name, { takesValue: r.value !== "nothing", help: r.doc, metavar: r.metavar, buildTime: r.buildTime }]));

/** Luma's own options, as the command table declares them. Order here is the order --help lists them. */
export const OPTIONS = view(COMMAND_TABLE.run.options);
/** The options of `luma check`, before or after FILE. */
export const CHECK_OPTIONS = view(COMMAND_TABLE.check.options);
/** The options of `luma mcp` (`luma mcp import` takes only --config). */
export const MCP_OPTIONS = view(COMMAND_TABLE.mcp.options);

/** The options a built agent still takes at run time: all but the build-time ones. */
export const RUN_TIME_OPTIONS: readonly string[] = COMMAND_TABLE.run.options.filter((r) => !r.buildTime).map((r) => r.name);

/**
 * What the run-time options of a parsed `luma FILE …` tell startProgram — the one mapping
 * `luma FILE` and a built agent both call it with, so an option added to the table reaches
 * both or neither (tests/cli/argv.test.ts holds every RUN_TIME_OPTIONS entry to it).
 */
export const runTimeOptions = (cmd: RunCommand): Pick<StartOptions, "configPath" | "trace" | "record" | "replay" | "usage" | "journal" | "runId"> => ({
  configPath: cmd.config,
  trace: cmd.trace,
  record: cmd.record,
  replay: cmd.replay,
  usage: cmd.usage,
  journal: cmd.journal,
  runId: cmd.runId,
});

function parseExplain(rest: readonly string[]): Command {
  if (rest.length === 0) throw new UsageError("luma explain needs a CODE (for example E0201 or TOOL_TIMEOUT)");
  if (rest.length > 1) throw new UsageError(`unexpected argument '${rest[1]}' (luma explain takes one CODE)`);
  return { kind: "explain", code: rest[0] };
}

/** `luma lsp [--stdio]`: stdio is the only transport; editors' clients often pass `--stdio` anyway. */
function parseLsp(rest: readonly string[]): Command {
  const refuse = (arg: string): never => {
    throw new UsageError(`unexpected argument '${arg}' (luma lsp speaks LSP over stdio and takes only --stdio)`);
  };
  scanArgv(rest, COMMAND_TABLE.lsp.options, { optionPrefix: "--", dashDashEnds: false, flagGivenValue: (_, arg) => refuse(arg), unknown: (_, arg) => refuse(arg), positional: refuse });
  return { kind: "lsp" };
}

function parseCompletion(rest: readonly string[]): Command {
  const shells = COMPLETION_SHELLS as readonly string[];
  if (rest.length === 0) throw new UsageError(`luma completion needs a SHELL (${COMPLETION_SHELLS.join(", ")})`);
  if (!shells.includes(rest[0])) throw new UsageError(`luma completion writes scripts for ${COMPLETION_SHELLS.join(", ")} (got '${rest[0]}')`);
  if (rest.length > 1) throw new UsageError(`unexpected argument '${rest[1]}' (luma completion takes one SHELL)`);
  return { kind: "completion", shell: rest[0] as CompletionShell };
}

/** `luma FILE [ARGS…]` and `luma check FILE` (which takes the run options only to refuse them). */
function parseRunOrCheck(argv: readonly string[], isCheck: boolean): Command {
  let file = "";
  const args: string[] = [];
  const rows = isCheck ? [...COMMAND_TABLE.check.options, ...COMMAND_TABLE.run.options] : COMMAND_TABLE.run.options;
  const { values, stoppedAt } = scanArgv(argv, rows, {
    optionPrefix: "--",
    dashDashEnds: true,
    unknown(name, arg, hint) {
      if (arg === "--help" || arg === "--version") return "stop";
      // Before FILE an unknown option is a mistake. After FILE it belongs to the program —
      // unless it is one slip from one of luma's own (`--replya`): that is a mistyped option
      // that would silently become an argument; `--` still passes it on (`-- --replya`).
      if (!file || hint) throw new UsageError(`unknown option ${name}${hint}${file ? " (after FILE, put program arguments that look like this after --)" : ""}`);
      return "positional";
    },
    positional(arg) {
      if (!file) file = arg;
      else if (isCheck) throw new UsageError(`unexpected argument '${arg}' (luma check takes one FILE)`);
      else args.push(arg);
    },
  });
  if (stoppedAt !== undefined) return { kind: stoppedAt === "--help" ? "help" : "version" };
  if (!file) throw new UsageError(isCheck ? "luma check needs a FILE.luma" : "missing FILE.luma");
  if (isCheck) {
    const { format = "text", ...runOptions } = values;
    // An empty value (`--config=`) sets nothing a check could ignore, so it is let through, as it always was.
    const given = Object.values(runOptions).some((v) => (Array.isArray(v) ? v.length > 0 : Boolean(v)));
    if (given) throw new UsageError("luma check takes no run options (only --format): it parses and checks FILE only");
    return { kind: "check", file, format: format as CheckFormat };
  }
  const cmd = { kind: "run", file, args, toolModules: [], ...values } as RunCommand;
  if (cmd.record !== undefined && cmd.replay !== undefined) throw new UsageError("--record and --replay cannot be used together");
  return cmd;
}

/** Each first word's parser (it gets the arguments after the word; the journal's and dev loop's get the word too). */
const PARSERS: Record<string, (argv: readonly string[]) => Command> = {
  check: (argv) => parseRunOrCheck(argv.slice(1), true),
  test: parseDevLoopArgv,
  eval: parseDevLoopArgv,
  init: parseDevLoopArgv,
  explain: (argv) => parseExplain(argv.slice(1)),
  fmt: (argv) => parseFmtArgv(argv.slice(1)),
  build: (argv) => parseBuildArgv(argv.slice(1)),
  mcp: (argv) => parseMcpArgv(argv.slice(1)),
  chat: (argv) => parseChatArgv(argv.slice(1)),
  serve: (argv) => parseServeArgv(argv.slice(1)),
  lsp: (argv) => parseLsp(argv.slice(1)),
  runs: parseJournalCommand,
  approve: parseJournalCommand,
  deny: parseJournalCommand,
  store: (argv) => parseStoreArgv(argv.slice(1)),
  ui: (argv) => parseUiArgv(argv.slice(1)),
  completion: (argv) => parseCompletion(argv.slice(1)),
  help: () => ({ kind: "help" }),
  "--help": () => ({ kind: "help" }),
  "-h": () => ({ kind: "help" }),
  version: () => ({ kind: "version" }),
  "--version": () => ({ kind: "version" }),
  "-v": () => ({ kind: "version" }),
};

export function parseArgv(argv: readonly string[]): Command {
  if (argv.length === 0) throw new UsageError("missing FILE.luma");
  const parse = Object.hasOwn(PARSERS, argv[0]) ? PARSERS[argv[0]] : undefined;
  return parse ? parse(argv) : parseRunOrCheck(argv, false);
}
