/**
 * The argv of the developer loop's commands: `luma test [PATH…] [options]`,
 * `luma eval [PATH…] [options]` and `luma init [DIR]`. Usage errors are `UsageError`s (exit 64), as for every command.
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

export interface EvalCommand {
  kind: "eval";
  /** Files and directories; `.` when none is given. */
  paths: string[];
  /** `--format junit|json FILE`, each a report written after the run. */
  reports: { format: "junit" | "json"; file: string }[];
  /** `--min NAME=VALUE`: a bar for a score's mean. */
  mins: { score: string; bar: number }[];
  /** `--model AGENT=MODEL`: every case also runs with the agent on that model. */
  modelSwap?: { agent: string; model: string };
  concurrency?: number;
  record?: string;
  replay?: string;
  toolModules: string[];
  config?: string;
}

export interface InitCommand {
  kind: "init";
  dir: string;
}

export type DevLoopCommand = TestCommand | EvalCommand | InitCommand;

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
  if (first === "eval") return parseEvalArgv(rest);
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

function parseEvalArgv(rest: readonly string[]): EvalCommand {
  const paths: string[] = [];
  const { values } = scanArgv(rest, COMMAND_TABLE.eval.options, {
    optionPrefix: "--",
    dashDashEnds: false,
    unknown(name, _arg, hint) {
      throw new UsageError(`unknown option ${name} for luma eval${hint}`);
    },
    positional: (arg) => void paths.push(arg),
  });
  if (paths.length === 0) paths.push(".");
  const cmd = { kind: "eval", paths, reports: [], mins: [], toolModules: [], ...values } as EvalCommand;
  if (cmd.record !== undefined && cmd.replay !== undefined) throw new UsageError("--record and --replay cannot be used together");
  return cmd;
}
