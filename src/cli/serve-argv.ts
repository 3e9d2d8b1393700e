/**
 * `luma serve FILE [--http HOST:PORT] [--agent A]… [--cors ORIGIN]` (issue #26 §4): its
 * options are the command table's `serve` row; this file says what the positional argument is.
 */
import { COMMAND_TABLE } from "./command-table-argv";
import { scanArgv } from "./scan-argv";
import { UsageError } from "./usage-error";

export interface ServeCommand {
  kind: "serve";
  file: string;
  http?: string;
  agents: string[];
  cors?: string;
  /** `--agent-args AGENT=JSON`, repeatable. */
  agentArgs: string[];
  toolModules: string[];
  config?: string;
  trace?: string;
}

export function parseServeArgv(argv: readonly string[]): ServeCommand {
  let file = "";
  const { values } = scanArgv(argv, COMMAND_TABLE.serve.options, {
    optionPrefix: "--",
    dashDashEnds: false,
    unknown(name, _arg, hint) {
      throw new UsageError(`unknown option ${name} for luma serve${hint}`);
    },
    positional(arg) {
      if (file) throw new UsageError(`unexpected argument '${arg}' (luma serve takes one FILE)`);
      file = arg;
    },
  });
  if (!file) throw new UsageError("luma serve needs a FILE.luma");
  return { kind: "serve", file, agents: [], agentArgs: [], toolModules: [], ...values } as unknown as ServeCommand;
}
