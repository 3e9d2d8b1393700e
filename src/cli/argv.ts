/**
 * Command-line parsing (spec §15). One table of Luma's own options; they are recognised
 * before and after FILE, every other argument after FILE goes to the program's `args`,
 * and `--` ends option parsing. `luma check` has its own small table (`--format`), and
 * `luma explain CODE` takes just the code. Usage errors are data (`UsageError`), turned
 * into exit 64 by main.ts.
 */
import { parseBuildArgv, type BuildCommand } from "./build-argv";
import { JOURNAL_SUBCOMMANDS, parseJournalCommand, type JournalCommand } from "./journal-argv";
import { parseFmtArgv, type FmtCommand } from "./fmt-argv";
import { DEV_LOOP_COMMANDS, parseDevLoopArgv, type DevLoopCommand } from "./dev-loop-argv";
import { parseStoreArgv, type StoreResetCommand } from "./store-argv";
import type { StartOptions } from "../runtime/start-program";

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

/** `text`: diagnostics for people (stderr); `json`: one JSON object for editors and CI (stdout). */
export const CHECK_FORMATS = ["text", "json"] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** Parse and check only: no config, no tool modules (they are the runtime's business). */
export interface CheckCommand {
  kind: "check";
  file: string;
  format: CheckFormat;
}

/** `luma mcp FILE`: serve the program's tools and agent methods over MCP (src/mcp/). */
export interface McpServeCommand {
  kind: "mcp";
  file: string;
  agent?: string;
  http?: string;
  allowedHosts?: string;
  toolModules: string[];
  config?: string;
  trace?: string;
}

/** `luma mcp import NAME`: print Luma declarations for a configured MCP server's tools. */
export interface McpImportCommand {
  kind: "mcp-import";
  server: string;
  config?: string;
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
  | { kind: "help" }
  | { kind: "version" }
  /** `luma lsp`: the language server over stdio (src/lsp/). */
  | { kind: "lsp" }
  /** `luma approve | deny | runs [show]`: the journal's subcommands (journal-argv.ts). */
  | JournalCommand
  /** `luma test [PATH…]`, `luma init [DIR]` (dev-loop-argv.ts). */
  | DevLoopCommand
  /** `luma store reset [--yes]` (store-argv.ts). */
  | StoreResetCommand;

export class UsageError extends Error {}

type OptionSpec<C> = {
  takesValue: boolean;
  help: string;
  metavar?: string;
  /** Decided when `luma build` writes an agent: a built agent refuses it (run-built-agent.ts). */
  buildTime?: true;
  apply: (cmd: C, value: string) => void;
};

/** Luma's own options. Order here is the order --help lists them. */
export const OPTIONS: Record<string, OptionSpec<RunCommand>> = {
  "--tool-module": {
    takesValue: true, metavar: "PATH", help: "load a tool module (repeatable)", buildTime: true,
    apply: (c, v) => void c.toolModules.push(v),
  },
  "--config": { takesValue: true, metavar: "PATH", help: "use this luma.config.json", apply: (c, v) => void (c.config = v) },
  "--trace": { takesValue: true, metavar: "FILE|-", help: "write trace events as JSON Lines (- for stderr)", apply: (c, v) => void (c.trace = v) },
  "--record": {
    takesValue: true, metavar: "FILE", help: "save every model request and answer to a cassette (JSON Lines)",
    apply: (c, v) => void (c.record = v),
  },
  "--replay": {
    takesValue: true, metavar: "FILE", help: "answer model requests from a cassette, offline (no API key)",
    apply: (c, v) => void (c.replay = v),
  },
  "--journal": {
    takesValue: true, metavar: "PATH", help: "journal the run in this SQLite file (resume with --run-id)",
    apply: (c, v) => void (c.journal = v),
  },
  "--run-id": {
    takesValue: true, metavar: "ID", help: "the run's id in the journal: resumes it when it exists",
    apply: (c, v) => void (c.runId = v),
  },
  "--usage": {
    takesValue: false, help: "print a per-model token usage (and cost) table on stderr when the run ends",
    apply: (c) => void (c.usage = true),
  },
  "--generate-tool-types": {
    takesValue: true, metavar: "OUT.d.ts", help: "write TypeScript types for the tools, do not run", buildTime: true,
    apply: (c, v) => void (c.generateToolTypes = v),
  },
};

/** The options a built agent still takes at run time: all but the build-time ones. */
export const RUN_TIME_OPTIONS: readonly string[] = Object.keys(OPTIONS).filter((name) => !OPTIONS[name].buildTime);

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

/** The options of `luma check`, before or after FILE. */
export const CHECK_OPTIONS: Record<string, OptionSpec<CheckCommand>> = {
  "--format": {
    takesValue: true, metavar: CHECK_FORMATS.join("|"), help: "json: one object {\"diagnostics\":[…]} on stdout, for editors and CI",
    apply(c, v) {
      if (!(CHECK_FORMATS as readonly string[]).includes(v)) throw new UsageError(`--format must be ${CHECK_FORMATS.join(" or ")} (got '${v}')`);
      c.format = v as CheckFormat;
    },
  },
};

function parseExplain(rest: readonly string[]): Command {
  if (rest.length === 0) throw new UsageError("luma explain needs a CODE (for example E0201 or TOOL_TIMEOUT)");
  if (rest.length > 1) throw new UsageError(`unexpected argument '${rest[1]}' (luma explain takes one CODE)`);
  return { kind: "explain", code: rest[0] };
}

/** `luma lsp [--stdio]`: stdio is the only transport; editors' clients often pass `--stdio` anyway. */
function parseLsp(rest: readonly string[]): Command {
  const extra = rest.find((a) => a !== "--stdio");
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}' (luma lsp speaks LSP over stdio and takes only --stdio)`);
  return { kind: "lsp" };
}

type McpCommand = McpServeCommand | McpImportCommand;

/** The options of `luma mcp` and `luma mcp import` (which takes only --config). */
export const MCP_OPTIONS: Record<string, { metavar: string; help: string; apply: (c: McpServeCommand, v: string) => void }> = {
  "--agent": { metavar: "NAME", help: "serve this agent's tools and methods, under its settings", apply: (c, v) => void (c.agent = v) },
  "--http": { metavar: "HOST:PORT", help: "serve Streamable HTTP at http://HOST:PORT/mcp (default: stdio)", apply: (c, v) => void (c.http = v) },
  "--allowed-hosts": { metavar: "H[:P],…", help: "Host names clients use with --http (needed off loopback, with LUMA_MCP_TOKEN)", apply: (c, v) => void (c.allowedHosts = v) },
  "--tool-module": { metavar: "PATH", help: "load a tool module (repeatable)", apply: (c, v) => void c.toolModules.push(v) },
  "--config": { metavar: "PATH", help: "use this luma.config.json", apply: (c, v) => void (c.config = v) },
  "--trace": { metavar: "FILE|-", help: "write trace events as JSON Lines (- for stderr)", apply: (c, v) => void (c.trace = v) },
};

function parseMcp(argv: readonly string[]): McpCommand {
  const isImport = argv[0] === "import";
  const rest = isImport ? argv.slice(1) : argv;
  const cmd: McpServeCommand = { kind: "mcp", file: "", toolModules: [] };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq !== -1 ? arg.slice(0, eq) : arg;
    const spec = MCP_OPTIONS[name];
    if (spec && (!isImport || name === "--config")) {
      let value = eq === -1 || !arg.startsWith("--") ? undefined : arg.slice(eq + 1);
      if (value === undefined) {
        if (i + 1 >= rest.length) throw new UsageError(`option ${name} needs a value (${spec.metavar})`);
        value = rest[++i];
      }
      spec.apply(cmd, value);
    } else if (arg.startsWith("--")) {
      throw new UsageError(`unknown option ${name} for luma mcp${isImport ? " import (it takes --config only)" : ""}`);
    } else if (cmd.file) {
      throw new UsageError(`unexpected argument '${arg}' (luma mcp${isImport ? " import takes one server NAME" : " takes one FILE"})`);
    } else cmd.file = arg;
  }
  if (isImport) {
    if (!cmd.file) throw new UsageError("luma mcp import needs the NAME of a server in mcp_servers");
    return { kind: "mcp-import", server: cmd.file, config: cmd.config };
  }
  if (!cmd.file) throw new UsageError("luma mcp needs a FILE.luma");
  if (cmd.allowedHosts !== undefined && cmd.http === undefined) throw new UsageError("--allowed-hosts applies to --http only (stdio has no Host to check)");
  return cmd;
}

export function parseArgv(argv: readonly string[]): Command {
  if (argv.length === 0) throw new UsageError("missing FILE.luma");
  const first = argv[0];
  if (first === "mcp") return parseMcp(argv.slice(1));
  if (first === "--help" || first === "-h" || first === "help") return { kind: "help" };
  if (first === "--version" || first === "-v" || first === "version") return { kind: "version" };
  if (first === "explain") return parseExplain(argv.slice(1));
  if (first === "lsp") return parseLsp(argv.slice(1));

  if (first === "build") return parseBuildArgv(argv.slice(1));
  if (first === "fmt") return parseFmtArgv(argv.slice(1));
  if (first === "store") return parseStoreArgv(argv.slice(1));
  if (JOURNAL_SUBCOMMANDS.has(first)) return parseJournalCommand(argv);
  if (DEV_LOOP_COMMANDS.has(first)) return parseDevLoopArgv(argv);

  const isCheck = first === "check";
  const rest = isCheck ? argv.slice(1) : argv;
  const cmd: RunCommand = { kind: "run", file: "", args: [], toolModules: [] };
  const check: CheckCommand = { kind: "check", file: "", format: "text" };
  let optionsEnded = false;

  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!optionsEnded && arg === "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg : arg.slice(0, eq);
      const checkSpec = isCheck && Object.hasOwn(CHECK_OPTIONS, name) ? CHECK_OPTIONS[name] : undefined;
      const spec = checkSpec ?? (Object.hasOwn(OPTIONS, name) ? OPTIONS[name] : undefined);
      if (spec) {
        let value = eq === -1 ? undefined : arg.slice(eq + 1);
        if (!spec.takesValue) {
          if (value !== undefined) throw new UsageError(`option ${name} takes no value`);
          value = "";
        } else if (value === undefined) {
          if (i + 1 >= rest.length) throw new UsageError(`option ${name} needs a value (${spec.metavar})`);
          value = rest[++i];
        }
        if (checkSpec) checkSpec.apply(check, value);
        else (spec as OptionSpec<RunCommand>).apply(cmd, value);
        continue;
      }
      if (arg === "--help" || arg === "--version") return { kind: arg === "--help" ? "help" : "version" };
      // Before FILE an unknown option is a mistake; after FILE it belongs to the program.
      if (!cmd.file) throw new UsageError(`unknown option ${name}`);
    }
    if (!cmd.file) cmd.file = arg;
    else if (isCheck) throw new UsageError(`unexpected argument '${arg}' (luma check takes one FILE)`);
    else cmd.args.push(arg);
  }

  if (!cmd.file) throw new UsageError(isCheck ? "luma check needs a FILE.luma" : "missing FILE.luma");
  if (isCheck) {
    const given = cmd.usage || cmd.trace || cmd.generateToolTypes || cmd.record || cmd.replay || cmd.config || cmd.journal || cmd.runId || cmd.toolModules.length;
    if (given) throw new UsageError("luma check takes no run options (only --format): it parses and checks FILE only");
    return { ...check, file: cmd.file };
  }
  if (cmd.record !== undefined && cmd.replay !== undefined) throw new UsageError("--record and --replay cannot be used together");
  return cmd;
}
