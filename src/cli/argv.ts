/**
 * Command-line parsing (spec §15). One table of Luma's own options; they are recognised
 * before and after FILE, every other argument after FILE goes to the program's `args`,
 * and `--` ends option parsing. Usage errors are data (`UsageError`), turned into exit 64
 * by main.ts.
 */
import { JOURNAL_SUBCOMMANDS, parseJournalCommand, type JournalCommand } from "./journal-argv";

export interface RunCommand {
  kind: "run";
  file: string;
  args: string[];
  toolModules: string[];
  config?: string;
  trace?: string;
  generateToolTypes?: string;
  record?: string;
  replay?: string;
  journal?: string;
  runId?: string;
}

export type Command =
  | RunCommand
  /** Parse and check only: no config, no tool modules (they are the runtime's business). */
  | { kind: "check"; file: string }
  | { kind: "help" }
  | { kind: "version" }
  /** `luma approve | deny | runs [show]`: the journal's subcommands (journal-argv.ts). */
  | JournalCommand;

export class UsageError extends Error {}

type OptionSpec = { takesValue: boolean; apply: (cmd: RunCommand, value: string) => void };

/** Luma's own options. Order here is the order --help lists them. */
export const OPTIONS: Record<string, OptionSpec & { help: string; metavar?: string }> = {
  "--tool-module": {
    takesValue: true, metavar: "PATH", help: "load a tool module (repeatable)",
    apply: (c, v) => void c.toolModules.push(v),
  },
  "--config": { takesValue: true, metavar: "PATH", help: "use this luma.config.json", apply: (c, v) => void (c.config = v) },
  "--trace": { takesValue: true, metavar: "FILE|-", help: "write trace events as JSON Lines (- for stderr)", apply: (c, v) => void (c.trace = v) },
  "--record": {
    takesValue: true, metavar: "FILE", help: "save every model request and answer to a cassette (JSON Lines)",
    apply: (c, v) => void (c.record = v),
  },
  "--replay": {
    takesValue: true, metavar: "FILE", help: "answer model requests from a cassette, offline (no API key)",
    apply: (c, v) => void (c.replay = v),
  },
  "--journal": {
    takesValue: true, metavar: "PATH", help: "journal the run in this SQLite file (resume with --run-id)",
    apply: (c, v) => void (c.journal = v),
  },
  "--run-id": {
    takesValue: true, metavar: "ID", help: "the run's id in the journal: resumes it when it exists",
    apply: (c, v) => void (c.runId = v),
  },
  "--generate-tool-types": {
    takesValue: true, metavar: "OUT.d.ts", help: "write TypeScript types for the tools, do not run",
    apply: (c, v) => void (c.generateToolTypes = v),
  },
};

export function parseArgv(argv: readonly string[]): Command {
  if (argv.length === 0) throw new UsageError("missing FILE.luma");
  const first = argv[0];
  if (first === "--help" || first === "-h" || first === "help") return { kind: "help" };
  if (first === "--version" || first === "-v" || first === "version") return { kind: "version" };
  if (JOURNAL_SUBCOMMANDS.has(first)) return parseJournalCommand(argv);

  const isCheck = first === "check";
  const rest = isCheck ? argv.slice(1) : argv;
  const cmd: RunCommand = { kind: "run", file: "", args: [], toolModules: [] };
  let optionsEnded = false;

  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!optionsEnded && arg === "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg : arg.slice(0, eq);
      const spec = OPTIONS[name];
      if (spec) {
        let value = eq === -1 ? undefined : arg.slice(eq + 1);
        if (value === undefined) {
          if (i + 1 >= rest.length) throw new UsageError(`option ${name} needs a value (${spec.metavar})`);
          value = rest[++i];
        }
        spec.apply(cmd, value);
        continue;
      }
      if (arg === "--help" || arg === "--version") return { kind: arg === "--help" ? "help" : "version" };
      // Before FILE an unknown option is a mistake; after FILE it belongs to the program.
      if (!cmd.file) throw new UsageError(`unknown option ${name}`);
    }
    if (!cmd.file) cmd.file = arg;
    else if (isCheck) throw new UsageError(`unexpected argument '${arg}' (luma check takes one FILE)`);
    else cmd.args.push(arg);
  }

  if (!cmd.file) throw new UsageError(isCheck ? "luma check needs a FILE.luma" : "missing FILE.luma");
  if (isCheck) {
    const given = cmd.trace || cmd.generateToolTypes || cmd.record || cmd.replay || cmd.config || cmd.journal || cmd.runId || cmd.toolModules.length;
    if (given) throw new UsageError("luma check takes no options: it parses and checks FILE only");
    return { kind: "check", file: cmd.file };
  }
  if (cmd.record !== undefined && cmd.replay !== undefined) throw new UsageError("--record and --replay cannot be used together");
  return cmd;
}
