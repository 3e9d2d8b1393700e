/**
 * `luma chat FILE --agent A [--method m] [--thread ID]` (issue #26 §3): its options are the
 * command table's `chat` row; this file says what the positional argument is.
 */
import { COMMAND_TABLE } from "./command-table-argv";
import { scanArgv } from "./scan-argv";
import { UsageError } from "./usage-error";

export interface ChatCommand {
  kind: "chat";
  file: string;
  agent: string;
  method?: string;
  thread?: string;
  agentArgs?: string;
  toolModules: string[];
  config?: string;
  trace?: string;
  record?: string;
  replay?: string;
}

export function parseChatArgv(argv: readonly string[]): ChatCommand {
  let file = "";
  const { values } = scanArgv(argv, COMMAND_TABLE.chat.options, {
    optionPrefix: "--",
    dashDashEnds: false,
    unknown(name, _arg, hint) {
      throw new UsageError(`unknown option ${name} for luma chat${hint}`);
    },
    positional(arg) {
      if (file) throw new UsageError(`unexpected argument '${arg}' (luma chat takes one FILE)`);
      file = arg;
    },
  });
  if (!file) throw new UsageError("luma chat needs a FILE.luma");
  if (values.agent === undefined) throw new UsageError("luma chat needs --agent NAME (the agent that answers)");
  const cmd = { kind: "chat", file, toolModules: [], ...values } as unknown as ChatCommand;
  if (cmd.record !== undefined && cmd.replay !== undefined) throw new UsageError("--record and --replay cannot be used together");
  return cmd;
}
