/**
 * Command-line parsing (spec §15). One table of Luma's own options; they are recognised
 * before and after FILE, every other argument after FILE goes to the program's `args`,
 * and `--` ends option parsing. Usage errors are data (`UsageError`), turned into exit 64
 * by main.ts.
 */

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
}

/** `luma mcp FILE`: serve the program's tools and agent methods over MCP (src/mcp/). */
export interface McpServeCommand {
  kind: "mcp";
  file: string;
  agent?: string;
  http?: string;
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
  | McpServeCommand
  | McpImportCommand
  /** Parse and check only: no config, no tool modules (they are the runtime's business). */
  | { kind: "check"; file: string }
  | { kind: "help" }
  | { kind: "version" };

export class UsageError extends Error {}

type OptionSpec = { takesValue: boolean; apply: (cmd: RunCommand, value: string) => void };

/** Luma's own options. Order here is the order --help lists them. */
export const OPTIONS: Record<string, OptionSpec & { help: string; metavar?: string }> = {
  "--tool-module": {
    takesValue: true, metavar: "PATH", help: "load a tool module (repeatable)",
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
  "--generate-tool-types": {
    takesValue: true, metavar: "OUT.d.ts", help: "write TypeScript types for the tools, do not run",
    apply: (c, v) => void (c.generateToolTypes = v),
  },
};

type McpCommand = McpServeCommand | McpImportCommand;

/** The options of `luma mcp` and `luma mcp import` (which takes only --config). */
export const MCP_OPTIONS: Record<string, { metavar: string; help: string; apply: (c: McpServeCommand, v: string) => void }> = {
  "--agent": { metavar: "NAME", help: "serve this agent's tools and methods, under its settings", apply: (c, v) => void (c.agent = v) },
  "--http": { metavar: "HOST:PORT", help: "serve Streamable HTTP at http://HOST:PORT/mcp (default: stdio)", apply: (c, v) => void (c.http = v) },
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
  return cmd;
}

export function parseArgv(argv: readonly string[]): Command {
  if (argv.length === 0) throw new UsageError("missing FILE.luma");
  const first = argv[0];
  if (first === "mcp") return parseMcp(argv.slice(1));
  if (first === "--help" || first === "-h" || first === "help") return { kind: "help" };
  if (first === "--version" || first === "-v" || first === "version") return { kind: "version" };

  const isCheck = first === "check";
  const rest = isCheck ? argv.slice(1) : argv;
  const cmd: RunCommand = { kind: "run", file: "", args: [], toolModules: [] };
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
      const spec = OPTIONS[name];
      if (spec) {
        let value = eq === -1 ? undefined : arg.slice(eq + 1);
        if (value === undefined) {
          if (i + 1 >= rest.length) throw new UsageError(`option ${name} needs a value (${spec.metavar})`);
          value = rest[++i];
        }
        spec.apply(cmd, value);
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
    const given = cmd.trace || cmd.generateToolTypes || cmd.record || cmd.replay || cmd.config || cmd.toolModules.length;
    if (given) throw new UsageError("luma check takes no options: it parses and checks FILE only");
    return { kind: "check", file: cmd.file };
  }
  if (cmd.record !== undefined && cmd.replay !== undefined) throw new UsageError("--record and --replay cannot be used together");
  return cmd;
}
