/**
 * `luma build FILE -o OUT [--tool-module PATH]... [--config PATH] [--target T]` (issue #13).
 * Its own small table: the run-time options (`--trace`, `--record`, `--replay`) belong to the
 * built agent's command line, not to the build, and nothing after FILE is a program argument.
 */
import { UsageError } from "./argv";

export interface BuildCommand {
  kind: "build";
  file: string;
  out: string;
  toolModules: string[];
  config?: string;
  /** A `bun build --compile` target (`bun-linux-arm64`…); the host's when absent. */
  target?: string;
}

type Draft = Omit<BuildCommand, "out"> & { out?: string };

const BUILD_OPTIONS: Record<string, (cmd: Draft, value: string) => void> = {
  "-o": (c, v) => void (c.out = v),
  "--output": (c, v) => void (c.out = v),
  "--tool-module": (c, v) => void c.toolModules.push(v),
  "--config": (c, v) => void (c.config = v),
  "--target": (c, v) => void (c.target = v),
};

export function parseBuildArgv(argv: readonly string[]): BuildCommand {
  const cmd: Draft = { kind: "build", file: "", toolModules: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const apply = BUILD_OPTIONS[name];
    if (apply) {
      let value = eq === -1 ? undefined : arg.slice(eq + 1);
      if (value === undefined) {
        if (i + 1 >= argv.length) throw new UsageError(`option ${name} needs a value`);
        value = argv[++i];
      }
      apply(cmd, value);
    } else if (arg.startsWith("-")) {
      throw new UsageError(`unknown option ${name} for luma build (it takes -o OUT, --tool-module, --config, --target)`);
    } else if (cmd.file) {
      throw new UsageError(`unexpected argument '${arg}' (luma build takes one FILE)`);
    } else cmd.file = arg;
  }
  if (!cmd.file) throw new UsageError("luma build needs a FILE.luma");
  if (!cmd.out) throw new UsageError("luma build needs -o OUT (the executable to write)");
  return cmd as BuildCommand;
}
