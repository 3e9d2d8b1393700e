/**
 * `luma store reset [--yes] [--config PATH]`: moves the configured file or sqlite
 * idempotency store aside so the next run starts an empty one (store-reset-command.ts).
 * Without --yes it only says what it would do. Its options are the command table's
 * `store-reset` rows. Usage errors are UsageErrors (exit 64).
 */
import { COMMAND_TABLE } from "./command-table-argv";
import { scanArgv } from "./scan-argv";
import { UsageError } from "./usage-error";

export interface StoreResetCommand {
  kind: "store-reset";
  yes: boolean;
  config?: string;
}

export function parseStoreArgv(rest: readonly string[]): StoreResetCommand {
  if (rest[0] !== "reset") throw new UsageError("luma store takes one subcommand: luma store reset [--yes] [--config PATH]");
  const refuse = (arg: string, hint = ""): never => {
    throw new UsageError(`luma store reset does not take '${arg}' (only --yes and --config PATH)${hint}`);
  };
  const { values } = scanArgv(rest.slice(1), COMMAND_TABLE["store-reset"].options, {
    optionPrefix: "--",
    dashDashEnds: false,
    flagGivenValue: (_, arg) => refuse(arg),
    unknown: (_, arg, hint) => refuse(arg, hint),
    positional: (arg) => refuse(arg),
  });
  return { kind: "store-reset", yes: values.yes === true, ...(values.config === undefined ? {} : { config: values.config as string }) };
}
