/**
 * `luma mcp FILE [options]` (serve the program's tools and agent methods over MCP,
 * src/mcp/) and `luma mcp import NAME [--config PATH]` (print Luma declarations for a
 * configured server's tools). Their options are the command table's `mcp` and
 * `mcp-import` rows; this file says what the positional argument is and checks the pair
 * `--allowed-hosts` needs.
 */
import { COMMAND_TABLE } from "./command-table-argv";
import { scanArgv } from "./scan-argv";
import { UsageError } from "./usage-error";

/** `luma mcp FILE`: serve the program's tools and agent methods over MCP (src/mcp/). */
export interface McpServeCommand {
  kind: "mcp";
  file: string;
  agent?: string;
  agentArgs?: string;
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

export function parseMcpArgv(argv: readonly string[]): McpServeCommand | McpImportCommand {
  const isImport = argv[0] === "import";
  const rest = isImport ? argv.slice(1) : argv;
  let file = "";
  const { values } = scanArgv(rest, isImport ? COMMAND_TABLE["mcp-import"].options : COMMAND_TABLE.mcp.options, {
    optionPrefix: "--",
    dashDashEnds: false,
    unknown(name, _arg, hint) {
      throw new UsageError(`unknown option ${name} for luma mcp${isImport ? " import (it takes --config only)" : ""}${hint}`);
    },
    positional(arg) {
      if (file) throw new UsageError(`unexpected argument '${arg}' (luma mcp${isImport ? " import takes one server NAME" : " takes one FILE"})`);
      file = arg;
    },
  });
  if (isImport) {
    if (!file) throw new UsageError("luma mcp import needs the NAME of a server in mcp_servers");
    return { kind: "mcp-import", server: file, config: values.config as string | undefined };
  }
  if (!file) throw new UsageError("luma mcp needs a FILE.luma");
  const cmd = { kind: "mcp", file, toolModules: [], ...values } as McpServeCommand;
  if (cmd.allowedHosts !== undefined && cmd.http === undefined) throw new UsageError("--allowed-hosts applies to --http only (stdio has no Host to check)");
  return cmd;
}
