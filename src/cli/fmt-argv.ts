/**
 * The command line of `luma fmt [--check] PATH…` (run by fmt-command.ts, loaded only
 * when the command is used: this file imports nothing heavy). Its one option is the
 * command table's `fmt` row.
 */
import { COMMAND_TABLE } from "./command-table-argv";
import { scanArgv } from "./scan-argv";
import { UsageError } from "./usage-error";

export interface FmtCommand {
  kind: "fmt";
  paths: string[];
  check: boolean;
}

export function parseFmtArgv(rest: readonly string[]): FmtCommand {
  const paths: string[] = [];
  const unknown = (arg: string, hint = ""): never => {
    throw new UsageError(`unknown option ${arg} for luma fmt (it takes --check)${hint}`);
  };
  const { values } = scanArgv(rest, COMMAND_TABLE.fmt.options, {
    optionPrefix: "--",
    dashDashEnds: true,
    flagGivenValue: (_, arg) => unknown(arg),
    unknown: (_, arg, hint) => unknown(arg, hint),
    positional: (arg) => void paths.push(arg),
  });
  if (paths.length === 0) throw new UsageError("luma fmt needs a FILE.luma or a directory (or - for stdin)");
  return { kind: "fmt", paths, check: values.check === true };
}
