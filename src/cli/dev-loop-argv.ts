/**
 * The argv of the developer loop's commands: `luma test [PATH…] [options]` and
 * `luma init [DIR]`. Usage errors are `UsageError`s (exit 64), as for every command.
 */
import { COMMAND_TABLE, type OptionRow } from "./command-table-argv";
import { scanArgv } from "./scan-argv";
import { UsageError } from "./usage-error";

export interface TestCommand {
  kind: "test";
  /** Files and directories; `.` when none is given. */
  paths: string[];
  filter?: string;
  /** `--format junit FILE`: also write a JUnit XML report there. */
  junit?: string;
  toolModules: string[];
  config?: string;
  /** `--timeout MS`: each test's deadline (runtime/testing/run-tests.ts has the default). */
  timeoutMs?: number;
}

export interface InitCommand {
  kind: "init";
  dir: string;
}

export type DevLoopCommand = TestCommand | InitCommand;

/** `luma test`'s options, as the command table declares them, in the order --help lists them. */
export const TEST_OPTIONS: Readonly<Record<string, OptionRow>> = Object.fromEntries(COMMAND_TABLE.test.options.map((row) => [row.name, row]));

export function parseDevLoopArgv(argv: readonly string[]): DevLoopCommand {
  const [first, ...rest] = argv;
  if (first === "init") {
    const dirs: string[] = [];
    scanArgv(rest, COMMAND_TABLE.init.options, {
      optionPrefix: "--",
      dashDashEnds: false,
      unknown(_name, arg) {
        throw new UsageError(`unknown option ${arg} for luma init`);
      },
      positional: (arg) => void dirs.push(arg),
    });
    if (dirs.length > 1) throw new UsageError(`unexpected argument '${dirs[1]}' (luma init takes one DIR)`);
    return { kind: "init", dir: dirs[0] ?? "." };
  }
  const paths: string[] = [];
  const { values } = scanArgv(rest, COMMAND_TABLE.test.options, {
    optionPrefix: "--",
    dashDashEnds: false,
    unknown(name, _arg, hint) {
      throw new UsageError(`unknown option ${name} for luma test${hint}`);
    },
    positional: (arg) => void paths.push(arg),
  });
  if (paths.length === 0) paths.push(".");
  return { kind: "test", paths, toolModules: [], ...values } as TestCommand;
}
