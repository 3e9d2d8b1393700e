/**
 * `luma store reset [--yes] [--config PATH]`: moves the configured file or sqlite
 * idempotency store aside so the next run starts an empty one (store-reset-command.ts).
 * Without --yes it only says what it would do. Usage errors are UsageErrors (exit 64).
 */
import { UsageError } from "./argv";

export interface StoreResetCommand {
  kind: "store-reset";
  yes: boolean;
  config?: string;
}

export function parseStoreArgv(rest: readonly string[]): StoreResetCommand {
  if (rest[0] !== "reset") throw new UsageError("luma store takes one subcommand: luma store reset [--yes] [--config PATH]");
  const cmd: StoreResetCommand = { kind: "store-reset", yes: false };
  for (let i = 1; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--yes") cmd.yes = true;
    else if (arg === "--config" || arg.startsWith("--config=")) {
      const value = arg === "--config" ? rest[++i] : arg.slice("--config=".length);
      if (value === undefined || value === "") throw new UsageError("option --config needs a value (PATH)");
      cmd.config = value;
    } else throw new UsageError(`luma store reset does not take '${arg}' (only --yes and --config PATH)`);
  }
  return cmd;
}
