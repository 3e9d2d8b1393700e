/**
 * `luma build FILE -o OUT [--tool-module PATH]... [--config PATH] [--target T]` (issue #13).
 * Its options are the command table's `build` rows: the run-time options (`--trace`,
 * `--record`, `--replay`) belong to the built agent's command line, not to the build, and
 * nothing after FILE is a program argument.
 */
import { COMMAND_TABLE } from "./command-table-argv";
import { scanArgv } from "./scan-argv";
import { UsageError } from "./usage-error";

export interface BuildCommand {
  kind: "build";
  file: string;
  out: string;
  toolModules: string[];
  config?: string;
  /** A `bun build --compile` target (`bun-linux-arm64`…); the host's when absent. */
  target?: string;
}

export function parseBuildArgv(argv: readonly string[]): BuildCommand {
  let file = "";
  const { values } = scanArgv(argv, COMMAND_TABLE.build.options, {
    // Any `-x` is an option here: `-o` is one, and a file name never starts with `-`.
    optionPrefix: "-",
    dashDashEnds: false,
    needsValue: (name) => `option ${name} needs a value`,
    unknown(name, _arg, hint) {
      throw new UsageError(`unknown option ${name} for luma build (it takes -o OUT, --tool-module, --config, --target)${hint}`);
    },
    positional(arg) {
      if (file) throw new UsageError(`unexpected argument '${arg}' (luma build takes one FILE)`);
      file = arg;
    },
  });
  if (!file) throw new UsageError("luma build needs a FILE.luma");
  if (!values.out) throw new UsageError("luma build needs -o OUT (the executable to write)");
  return { kind: "build", file, toolModules: [], ...values } as unknown as BuildCommand;
}
