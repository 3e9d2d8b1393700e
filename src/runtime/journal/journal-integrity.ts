/**
 * What a run checks of its journal before it resumes (E0908): the journal must hold what
 * Luma wrote, all of it. A resume trusts the journal to say which side effects already
 * happened, so a journal that lost or mangled part of that is refused — nothing runs —
 * rather than read as "not done yet", which would run those side effects again.
 *
 *   a gap        the run's own row counts the step rows its receipts created (each in the
 *                receipt's transaction); fewer (or more) rows than that means a receipt was
 *                deleted (or the journal restored from another copy)
 *   a bad row    a step row with a kind or status Luma never writes, or finished without
 *                an outcome; an approval row with a decision that is neither
 *
 * What it cannot see (docs/durable-runs.md): a deletion made together with an edit of the
 * run's count, the last receipts of a run cut off with the count lowered to match, or a
 * whole journal emptied (every table) — to the journal these look like a run that got
 * that far, or like a new journal. Record contents are checked where they are read: an
 * outcome's seal and shape when it is replayed (journal-codec.ts), a tool output against
 * the tool's schema (tools/steps/journal-steps.ts), a decision's seal before it approves anything.
 */
import { startupError } from "../../diagnostics/luma-error";
import type { ApprovalRow, StepRow } from "./journal-backend";

const KINDS = new Set(["tool", "query", "command", "model", "now", "handoff"]);
const STATUSES = new Set(["begun", "ok", "error"]);

/** `left`: what was kept as found — the whole journal (a file refused), or the run's records (its lease is still let go). */
export const journalDamaged = (shown: string, what: string, left = "the journal was left unchanged") =>
  startupError(`Journal ${shown} ${what}; nothing was run and ${left}.`, { catalogCode: "E0908" });

const RECORDS_KEPT = "its records were left unchanged";

const badStep = (s: StepRow): string | undefined => {
  if (!KINDS.has(s.kind)) return `kind ${JSON.stringify(s.kind)}`;
  if (!STATUSES.has(s.status)) return `status ${JSON.stringify(s.status)}`;
  if (s.status !== "begun" && typeof s.output !== "string") return "no outcome for a finished step";
  if (typeof s.digest !== "string" || typeof s.name !== "string") return "no input digest or name";
  if (!Number.isFinite(s.begins) || !Number.isFinite(s.attempts)) return "a count that is not a number";
  return undefined;
};

/** Throws E0908 when the run's recorded steps (and approvals) are not the whole, well-formed record its receipts wrote. */
export function checkRecorded(shown: string, runId: string, steps: readonly StepRow[], count: number | null, approvals: readonly ApprovalRow[]): void {
  for (const s of steps) {
    const bad = badStep(s);
    if (bad !== undefined) throw journalDamaged(shown, `holds a malformed record for step ${s.stepId} of run ${runId} (${bad})`, RECORDS_KEPT);
  }
  for (const a of approvals) {
    if (a.decision !== null && a.decision !== "approved" && a.decision !== "denied") {
      throw journalDamaged(shown, `holds a malformed approval for step ${a.stepId} of run ${runId} (decision ${JSON.stringify(a.decision)})`, RECORDS_KEPT);
    }
  }
  if (count !== null && count !== steps.length) {
    throw journalDamaged(
      shown,
      `has a gap in run ${runId}: its receipts recorded ${count} step${count === 1 ? "" : "s"}, ${steps.length} ${steps.length === 1 ? "is" : "are"} there (a receipt was deleted, or the journal was restored from another copy). Resuming would run finished steps — their side effects — again`,
      RECORDS_KEPT,
    );
  }
}
