/**
 * The command line of `luma fmt [--check] PATH…` (run by fmt-command.ts, loaded only
 * when the command is used: this file imports nothing heavy).
 */
import { UsageError } from "./argv";

export interface FmtCommand {
  kind: "fmt";
  paths: string[];
  check: boolean;
}

export function parseFmtArgv(rest: readonly string[]): FmtCommand {
  const cmd: FmtCommand = { kind: "fmt", paths: [], check: false };
  let optionsEnded = false;
  for (const arg of rest) {
    if (!optionsEnded && arg === "--") optionsEnded = true;
    else if (!optionsEnded && arg === "--check") cmd.check = true;
    else if (!optionsEnded && arg.startsWith("--")) throw new UsageError(`unknown option ${arg} for luma fmt (it takes --check)`);
    else cmd.paths.push(arg);
  }
  if (cmd.paths.length === 0) throw new UsageError("luma fmt needs a FILE.luma or a directory (or - for stdin)");
  return cmd;
}
