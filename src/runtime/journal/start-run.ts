/**
 * A program run with a journal, as open-program.ts drives it: open the journal (startup:
 * its errors stop the program before anything ran), settle the run id — `--run-id ID`, else
 * a fresh one printed to stderr as `run: <id>` — take the run's lease, and at the end record
 * how the run ended (finished, failed, or pending an approval) and let the lease go.
 *
 * LUMA_TEST_LEASE_MS (tests only) shortens the lease, as it does for idempotency claims.
 */
import { startupError } from "../../diagnostics/luma-error";
import type { LumaConfig } from "../../config/config-types";
import { RUN_ID_PATTERN, journalErrors } from "./journal-errors";
import { openJournal, type OpenJournalContext } from "./open-journal";
import { RunJournal } from "./run-journal";

export interface JournalRunOptions extends OpenJournalContext {
  runId?: string;
  program: string;
  stderr: (line: string) => void;
}

/** LUMA_TEST_LEASE_MS: every journal run's lease (a `luma FILE` run's, a served call's: call-runs.ts). */
export const TEST_LEASE_MS = Number(process.env.LUMA_TEST_LEASE_MS) > 0 ? Number(process.env.LUMA_TEST_LEASE_MS) : undefined;

export const newRunId = (): string => `r-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;

/** The run's journal with its lease held, or undefined when the run has no journal. */
export async function startJournalRun(config: LumaConfig, opts: JournalRunOptions): Promise<RunJournal | undefined> {
  if (opts.runId !== undefined && !RUN_ID_PATTERN.test(opts.runId)) throw journalErrors.runIdInvalid(opts.runId);
  const opened = await openJournal(config, opts);
  if (opened === undefined) {
    if (opts.runId !== undefined) throw startupError(`--run-id needs a journal: pass --journal PATH or set "journal" in luma.config.json.`, { catalogCode: "E0903" });
    return undefined;
  }
  const runId = opts.runId ?? newRunId();
  try {
    const journal = await RunJournal.start(opened.backend, opened.codec, { runId, program: opts.program, leaseMs: TEST_LEASE_MS });
    if (opts.runId === undefined) opts.stderr(`run: ${runId}`);
    return journal;
  } catch (e) {
    await opened.backend.close();
    throw e;
  }
}

/** Records how the run ended and closes the journal; the run's own error (if any) wins over the journal's. */
export async function endJournalRun(journal: RunJournal, error: unknown): Promise<void> {
  const status = error === undefined ? "finished" : (error as { phase?: string }).phase === "pending" ? "pending" : "failed";
  try {
    await journal.end(status);
  } catch (e) {
    if (error === undefined) throw e;
  } finally {
    await journal.backend.close();
  }
}
