/**
 * The journal's subcommands (durable runs), parsed apart from running a program:
 *
 *   luma approve --run-id ID [--step STEP] [--digest D] [--journal PATH] [--config PATH]
 *   luma deny    --run-id ID [--step STEP] [--journal PATH] [--config PATH]
 *   luma runs    [--journal PATH] [--config PATH] [--format table|json]
 *   luma runs show ID [--journal PATH] [--config PATH] [--format table|json]
 *
 * Without --journal the journal comes from luma.config.json (--config, else the working
 * directory's). Usage errors are UsageErrors, as for a run (exit 64).
 */
import { UsageError } from "./argv";

export type JournalCommand =
  | { kind: "approve" | "deny"; runId: string; step?: string; digest?: string; journal?: string; config?: string }
  | { kind: "runs"; journal?: string; config?: string; format: "table" | "json" }
  | { kind: "runs-show"; runId: string; journal?: string; config?: string; format: "table" | "json" };

export const JOURNAL_SUBCOMMANDS = new Set(["approve", "deny", "runs"]);

type Subcommand = "approve" | "deny" | "runs" | "runs-show";

const RUNS_OPTIONS = { "--journal": "PATH", "--config": "PATH", "--format": "table|json" };

/** Each subcommand's options (all take a value) and the metavar `luma --help` shows for it. */
export const JOURNAL_OPTIONS: Record<Subcommand, Readonly<Record<string, string>>> = {
  approve: { "--run-id": "ID", "--step": "STEP", "--digest": "D", "--journal": "PATH", "--config": "PATH" },
  // No --digest: only an approval pins the call's arguments; a refusal refuses whatever waits.
  deny: { "--run-id": "ID", "--step": "STEP", "--journal": "PATH", "--config": "PATH" },
  runs: RUNS_OPTIONS,
  "runs-show": RUNS_OPTIONS,
};

/** A subcommand's options as --help writes them: the required --run-id bare, the rest in brackets. */
export const journalUsage = (sub: Subcommand): string =>
  Object.entries(JOURNAL_OPTIONS[sub])
    .map(([name, metavar]) => (name === "--run-id" ? `${name} ${metavar}` : `[${name} ${metavar}]`))
    .join(" ");

export function parseJournalCommand(argv: readonly string[]): JournalCommand {
  let sub = argv[0] as Subcommand;
  let rest = argv.slice(1);
  let showId: string | undefined;
  if (sub === "runs" && rest[0] === "show") {
    sub = "runs-show";
    showId = rest[1];
    if (showId === undefined || showId.startsWith("--")) throw new UsageError("luma runs show needs a run id: luma runs show ID");
    rest = rest.slice(2);
  }
  const shownName = sub === "runs-show" ? "runs show" : sub;
  const values: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (!Object.hasOwn(JOURNAL_OPTIONS[sub], name)) {
      throw new UsageError(arg.startsWith("--") ? `luma ${shownName} does not take ${name}` : `unexpected argument '${arg}' for luma ${shownName}`);
    }
    let value = eq === -1 ? undefined : arg.slice(eq + 1);
    if (value === undefined) {
      if (i + 1 >= rest.length) throw new UsageError(`option ${name} needs a value`);
      value = rest[++i];
    }
    values[name] = value;
  }
  const format = values["--format"] ?? "table";
  if (format !== "table" && format !== "json") throw new UsageError(`--format takes table or json, not '${format}'`);
  const where = { journal: values["--journal"], config: values["--config"] };
  if (sub === "runs") return { kind: "runs", ...where, format };
  if (sub === "runs-show") return { kind: "runs-show", runId: showId!, ...where, format };
  const runId = values["--run-id"];
  if (runId === undefined) throw new UsageError(`luma ${sub} needs --run-id ID`);
  return { kind: sub as "approve" | "deny", runId, step: values["--step"], digest: values["--digest"], ...where };
}
