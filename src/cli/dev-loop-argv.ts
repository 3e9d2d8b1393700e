/**
 * The argv of the developer loop's commands: `luma test [PATH…] [options]` and
 * `luma init [DIR]`. Usage errors are `UsageError`s (exit 64), as for every command.
 */
import { UsageError } from "./argv";

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

export const DEV_LOOP_COMMANDS = new Set(["test", "init"]);

/** `luma test`'s options, in the order --help lists them. */
export const TEST_OPTIONS: Record<string, { metavar: string; help: string; apply: (c: TestCommand, v: string, next: () => string) => void }> = {
  "--filter": { metavar: "TEXT", help: "run only the tests whose name contains TEXT", apply: (c, v) => void (c.filter = v) },
  "--format": {
    metavar: "junit FILE",
    help: "also write a JUnit XML report to FILE (for CI systems)",
    apply(c, v, next) {
      if (v !== "junit") throw new UsageError(`--format of luma test must be junit (got '${v}')`);
      c.junit = next();
    },
  },
  "--tool-module": { metavar: "PATH", help: "load a tool module (repeatable)", apply: (c, v) => void c.toolModules.push(v) },
  "--config": { metavar: "PATH", help: "use this luma.config.json", apply: (c, v) => void (c.config = v) },
  "--timeout": {
    metavar: "MS",
    help: "stop and fail a test still running after MS ms (default 30000)",
    apply(c, v) {
      // At most 2^31-1: a longer timer would fire at once.
      if (!/^[0-9]+$/.test(v) || Number(v) < 1 || Number(v) > 2 ** 31 - 1) throw new UsageError(`--timeout of luma test must be a whole number of ms from 1 to 2147483647 (got '${v}')`);
      c.timeoutMs = Number(v);
    },
  },
};

export function parseDevLoopArgv(argv: readonly string[]): DevLoopCommand {
  const [first, ...rest] = argv;
  if (first === "init") {
    if (rest.some((a) => a.startsWith("--"))) throw new UsageError(`unknown option ${rest.find((a) => a.startsWith("--"))} for luma init`);
    if (rest.length > 1) throw new UsageError(`unexpected argument '${rest[1]}' (luma init takes one DIR)`);
    return { kind: "init", dir: rest[0] ?? "." };
  }
  const cmd: TestCommand = { kind: "test", paths: [], toolModules: [] };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith("--")) {
      cmd.paths.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const spec = Object.hasOwn(TEST_OPTIONS, name) ? TEST_OPTIONS[name] : undefined;
    if (!spec) throw new UsageError(`unknown option ${name} for luma test`);
    const next = () => {
      if (i + 1 >= rest.length) throw new UsageError(`option ${name} needs a value (${spec.metavar})`);
      return rest[++i];
    };
    spec.apply(cmd, eq === -1 ? next() : arg.slice(eq + 1), next);
  }
  if (cmd.paths.length === 0) cmd.paths.push(".");
  return cmd;
}
