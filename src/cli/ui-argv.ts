/**
 * `luma ui [--journal PATH]… [--trace FILE]… [--config P] [--http HOST:PORT]`: its options
 * are the command table's `ui` rows. `--http` is read here into a host and a port (E1502
 * when it is not one); whether that address may be served is ui-command.ts's.
 */
import { startupError } from "../diagnostics/luma-error";
import { COMMAND_TABLE } from "./command-table-argv";
import { scanArgv } from "./scan-argv";
import { UsageError } from "./usage-error";

export interface UiCommand {
  kind: "ui";
  journals: string[];
  traces: string[];
  config?: string;
  http?: string;
}

export const DEFAULT_UI_ADDRESS = { host: "127.0.0.1", port: 4780 };

/** `127.0.0.1:4780`, `localhost:0`, `[::1]:4780`, `0.0.0.0:8080` → host and port. */
export function parseHttpAddress(text: string): { host: string; port: number } {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text);
  if (m === null || Number(m[2]) > 65535) throw startupError(`--http '${text}' is not HOST:PORT (for example 127.0.0.1:4780, [::1]:4780).`, { catalogCode: "E1502" });
  return { host: m[1].startsWith("[") ? m[1].slice(1, -1) : m[1], port: Number(m[2]) };
}

export function parseUiArgv(rest: readonly string[]): UiCommand {
  const refuse = (arg: string, hint = ""): never => {
    throw new UsageError(`luma ui does not take '${arg}'${hint} (options: --journal PATH, --trace FILE, --config PATH, --http HOST:PORT)`);
  };
  const { values } = scanArgv(rest, COMMAND_TABLE.ui.options, {
    optionPrefix: "--",
    dashDashEnds: false,
    flagGivenValue: (_, arg) => refuse(arg),
    unknown: (_, arg, hint) => refuse(arg, hint),
    positional: (arg) => refuse(arg),
  });
  return { kind: "ui", journals: [], traces: [], ...values } as UiCommand;
}
