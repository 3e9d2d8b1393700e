/**
 * `luma eval`'s evals kept in the journal for `luma ui` (docs/eval.md#in-luma-ui): when a
 * journal is configured each case is a run there already; after the cases ran, each eval (one
 * per `--model` variant) is recorded too — its report as `--format json` writes it, plus the
 * `luma eval` it belongs to (`invocation`), so the UI groups the variants side by side.
 *
 * The journal is opened as `luma runs` opens it (journal-admin.ts `withJournal`: as its
 * header says it was written, with LUMA_IDEMPOTENCY_KEY when sealed); the report is encoded
 * by the journal's codec, so an encrypted journal seals it like a step's outcome. Without a
 * journal nothing is recorded and `luma eval` works as before.
 */
import { startupError } from "../../diagnostics/luma-error";
import { withJournal, type AdminOptions } from "../journal/journal-admin";
import type { JournalCodec } from "../journal/journal-codec";
import type { EvalRow } from "../journal/journal-backend";

/** What is stored per eval: the JSON report's eval object, with its `luma eval` and time. */
export interface EvalRecord {
  /** `<invocation>/<n>`: the n-th eval (or variant) the `luma eval` ran. */
  id: string;
  invocation: string;
  at: number;
  name: string;
  file: string;
  dataset: string;
  variant: string | null;
  scores: Record<string, { mean: number; failing: { line: number; id?: string }[] }>;
  cases: { line: number; id: string | null; scores: Record<string, boolean | number>; error: string | null; duration_ms: number; tokens_in: number | null; tokens_out: number | null; cost_usd: number | null; run_id: string | null }[];
}

/** The step id the report is encoded under (bound to the eval's id, as a step's outcome is to its run and step). */
const REPORT_KEY = "\u0000eval";

/** Records the evals of one `luma eval` in one journal. */
export async function recordEvals(journal: AdminOptions, records: readonly EvalRecord[]): Promise<void> {
  try {
    await withJournal(journal, async ({ backend, codec }) => {
      for (const r of records) await backend.recordEval({ evalId: r.id, createdAt: r.at, report: codec.encode(r.id, REPORT_KEY, r) });
    });
  } catch (e) {
    throw startupError(`the evals ran, but cannot be recorded in the journal: ${(e as Error).message}`, { catalogCode: "E1416", phase: "runtime" });
  }
}

/** The recorded evals of a journal (an unreadable one is left out: the others still show). */
export const decodeEvals = (codec: JournalCodec, rows: readonly EvalRow[]): EvalRecord[] =>
  rows.flatMap((row) => {
    try {
      return [codec.decode(row.evalId, REPORT_KEY, row.report) as EvalRecord];
    } catch {
      return [];
    }
  });
