/**
 * The journal's subcommands (durable runs), parsed apart from running a program:
 *
 *   luma approve --run-id ID [--step STEP] [--digest D] [--json JSON] [--journal PATH] [--config PATH]
 *   luma deny    --run-id ID [--step STEP] [--journal PATH] [--config PATH]
 *   luma runs    [--journal PATH] [--config PATH] [--format table|json]
 *   luma runs show ID [--journal PATH] [--config PATH] [--format table|json]
 *   luma runs answer --run-id ID [--step STEP] --json JSON [--digest D] [--journal PATH] [--config PATH]
 *
 * Without --journal the journal comes from luma.config.json (--config, else the working
 * directory's). Usage errors are UsageErrors, as for a run (exit 64).
 */
import { COMMAND_TABLE } from "./command-table-argv";
import { scanArgv } from "./scan-argv";
import { UsageError } from "./usage-error";

export type JournalCommand =
  | { kind: "approve" | "deny"; runId: string; step?: string; digest?: string; json?: string; journal?: string; config?: string }
  | { kind: "runs-answer"; runId: string; step?: string; digest?: string; json: string; journal?: string; config?: string }
  | { kind: "runs"; journal?: string; config?: string; format: "table" | "json" }
  | { kind: "runs-show"; runId: string; journal?: string; config?: string; format: "table" | "json" };

type Subcommand = "approve" | "deny" | "runs" | "runs-show" | "runs-answer";

const SUBCOMMANDS: readonly Subcommand[] = ["approve", "deny", "runs", "runs-show", "runs-answer"];

/** Each subcommand's options (all take a value) and the metavar `luma --help` shows for it, from the command table. */
export const JOURNAL_OPTIONS = Object.fromEntries(
  SUBCOMMANDS.map((sub) => [sub, Object.fromEntries(COMMAND_TABLE[sub].options.map((row) => [row.name, row.metavar ?? ""]))]),
) as Record<Subcommand, Readonly<Record<string, string>>>;

/** A subcommand's options as --help writes them: the required ones (--run-id) bare, the rest in brackets. */
export const journalUsage = (sub: Subcommand): string =>
  COMMAND_TABLE[sub].options.map((row) => (row.required ? `${row.name} ${row.metavar}` : `[${row.name} ${row.metavar}]`)).join(" ");

interface JournalValues {
  runId?: string;
  step?: string;
  digest?: string;
  journal?: string;
  config?: string;
  format?: string;
  json?: string;
}

export function parseJournalCommand(argv: readonly string[]): JournalCommand {
  let sub = argv[0] as Subcommand;
  let rest = argv.slice(1);
  let showId: string | undefined;
  if (sub === "runs" && rest[0] === "show") {
    sub = "runs-show";
    showId = rest[1];
    if (showId === undefined || showId.startsWith("--")) throw new UsageError("luma runs show needs a run id: luma runs show ID");
    rest = rest.slice(2);
  } else if (sub === "runs" && rest[0] === "answer") {
    sub = "runs-answer";
    rest = rest.slice(1);
  }
  const shownName = sub === "runs-show" ? "runs show" : sub === "runs-answer" ? "runs answer" : sub;
  const scanned = scanArgv(rest, COMMAND_TABLE[sub].options, {
    optionPrefix: "--",
    dashDashEnds: false,
    needsValue: (name) => `option ${name} needs a value`,
    unknown(name, _arg, hint) {
      throw new UsageError(`luma ${shownName} does not take ${name}${hint}`);
    },
    positional(arg) {
      throw new UsageError(`unexpected argument '${arg}' for luma ${shownName}`);
    },
  });
  const values = scanned.values as JournalValues;
  const format = values.format ?? "table";
  if (format !== "table" && format !== "json") throw new UsageError(`--format takes table or json, not '${format}'`);
  const where = { journal: values.journal, config: values.config };
  if (sub === "runs") return { kind: "runs", ...where, format };
  if (sub === "runs-show") return { kind: "runs-show", runId: showId!, ...where, format };
  const runId = values.runId;
  if (runId === undefined) throw new UsageError(`luma ${shownName} needs --run-id ID`);
  if (sub === "runs-answer") {
    if (values.json === undefined) throw new UsageError(`luma runs answer needs --json JSON: the answer, a value of the client tool's return schema`);
    return { kind: sub, runId, step: values.step, digest: values.digest, json: values.json, ...where };
  }
  return { kind: sub, runId, step: values.step, digest: values.digest, json: values.json, ...where };
}
