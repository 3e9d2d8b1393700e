/**
 * What `luma runs`, `luma runs show`, `luma approve` and `luma deny` do, as data (the CLI
 * renders it, cli/journal-commands.ts). They open the journal without taking any run's
 * lease: reading is always safe, and a decision is one fenced-by-state update (it lands
 * only on a call still pending, for the digest that call recorded).
 *
 * A decision binds to the pending call's input digest. `--digest D` (copied from
 * `luma runs`) makes the binding explicit: a digest that is not the pending call's is
 * refused and nothing is recorded.
 *
 * The journal is opened as its header says it was written (open-journal.ts `reader`): an
 * encrypted one with LUMA_IDEMPOTENCY_KEY, whether the key came to the run from the
 * journal's config, an encrypted idempotency store's, or `--journal PATH`.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { runtimeError, startupError } from "../../diagnostics/luma-error";
import { loadConfig } from "../../config/load-config";
import type { ApprovalRow, Decision, JournalBackend, RunRow, StepRow } from "./journal-backend";
import type { JournalCodec, Outcome } from "./journal-codec";
import { DEFAULT_JOURNAL_PATH, openJournal, type OpenedJournal } from "./open-journal";

export interface AdminOptions {
  journal?: string;
  config?: string;
  cwd: string;
  env: Record<string, string | undefined>;
}

export interface StepView {
  step: string;
  kind: string;
  name: string;
  /** ok · error · begun (no finish receipt) */
  outcome: string;
  code?: string;
  attempts: number;
  duration_ms: number | null;
  started_at: string | null;
  finished_at: string | null;
}

export interface PendingView {
  run: string;
  step: string;
  tool: string;
  digest: string;
  args: string;
  requested_at: string;
}

const iso = (ms: number | null): string | null => (ms === null || ms === 0 ? null : new Date(ms).toISOString());

export async function withJournal<T>(opts: AdminOptions, use: (j: OpenedJournal) => Promise<T>): Promise<T> {
  let opened: OpenedJournal | undefined;
  if (opts.journal !== undefined) {
    const path = resolve(opts.cwd, opts.journal);
    if (!existsSync(path)) throw startupError(`Journal ${opts.journal} does not exist.`, { catalogCode: "E0901" });
    opened = await openJournal({ tool_modules: [], tool_contexts: {} }, { cliPath: { path, shown: opts.journal }, projectDir: opts.cwd, env: opts.env, reader: true });
  } else {
    const loaded = await loadConfig({ configPath: opts.config && resolve(opts.cwd, opts.config), programDir: opts.cwd });
    const jc = loaded.config.journal;
    if (jc === undefined) throw startupError(`No journal: pass --journal PATH, or set "journal" in luma.config.json.`, { catalogCode: "E0901" });
    if (jc.backend === "sqlite" && !existsSync(resolve(loaded.projectDir, jc.path ?? DEFAULT_JOURNAL_PATH))) {
      throw startupError(`Journal ${jc.path ?? DEFAULT_JOURNAL_PATH} does not exist.`, { catalogCode: "E0901" });
    }
    opened = await openJournal(loaded.config, { projectDir: loaded.projectDir, env: opts.env, reader: true });
  }
  try {
    return await use(opened!);
  } finally {
    await opened!.backend.close();
  }
}

export const stepView = (codec: JournalCodec, runId: string, s: StepRow): StepView => {
  let code: string | undefined;
  if (s.status === "error" && s.output !== null) code = ((codec.decode(runId, s.stepId, s.output) as Outcome & { error: { code?: string } }).error.code) ?? undefined;
  return {
    step: s.stepId,
    kind: s.kind,
    name: s.name,
    outcome: s.status,
    ...(code === undefined ? {} : { code }),
    attempts: s.status === "begun" ? s.begins : s.attempts,
    duration_ms: s.durationMs === null ? null : Math.round(s.durationMs * 1000) / 1000,
    started_at: iso(s.startedAt),
    finished_at: iso(s.finishedAt),
  };
};

export const pendingView = (codec: JournalCodec, a: ApprovalRow): PendingView => ({
  run: a.runId,
  step: a.stepId,
  tool: a.tool,
  digest: a.digest,
  args: codec.decode(a.runId, a.stepId + "\u0000args", a.args) as string,
  requested_at: iso(a.requestedAt)!,
});

export async function listRuns(opts: AdminOptions): Promise<{ runs: (Omit<RunRow, "leaseUntil" | "owner"> & { steps: number })[]; pending: PendingView[] }> {
  return withJournal(opts, async ({ backend, codec }) => {
    const runs = await backend.runs();
    const out = [];
    for (const r of runs) out.push({ runId: r.runId, program: r.program, status: r.status, createdAt: r.createdAt, updatedAt: r.updatedAt, steps: (await backend.steps(r.runId)).length });
    const pending = (await backend.approvals(undefined)).filter((a) => a.decision === null).map((a) => pendingView(codec, a));
    return { runs: out, pending };
  });
}

export async function showRun(opts: AdminOptions, runId: string): Promise<{ run: RunRow; steps: StepView[] }> {
  return withJournal(opts, async ({ backend, codec }) => {
    const run = (await backend.runs()).find((r) => r.runId === runId);
    if (run === undefined) throw runtimeError("RUNTIME_ERROR", `Journal ${backend.shown} has no run ${runId}.`);
    return { run, steps: (await backend.steps(runId)).map((s) => stepView(codec, runId, s)) };
  });
}

const pendingOf = async (backend: JournalBackend, runId: string, step: string | undefined): Promise<ApprovalRow> => {
  const waiting = (await backend.approvals(runId)).filter((a) => a.decision === null);
  if (step !== undefined) {
    const a = waiting.find((w) => w.stepId === step);
    if (a === undefined) throw runtimeError("RUNTIME_ERROR", `Run ${runId} has no call waiting for approval at step ${step}.`);
    return a;
  }
  if (waiting.length === 0) throw runtimeError("RUNTIME_ERROR", `Run ${runId} has no call waiting for approval.`);
  if (waiting.length > 1) throw runtimeError("RUNTIME_ERROR", `Run ${runId} has ${waiting.length} calls waiting for approval (${waiting.map((w) => w.stepId).join(", ")}): pass --step STEP.`);
  return waiting[0];
};

export async function decide(
  opts: AdminOptions,
  decision: Decision,
  runId: string,
  step: string | undefined,
  digest: string | undefined,
): Promise<PendingView> {
  return withJournal(opts, async ({ backend, codec }) => {
    const a = await pendingOf(backend, runId, step);
    if (digest !== undefined && digest !== a.digest) {
      throw runtimeError(
        "TOOL_PERMISSION_DENIED",
        `Refused: --digest ${digest} is not the input digest of the call waiting at step ${a.stepId} of run ${runId} (${a.digest}); nothing was recorded.`,
      );
    }
    const sealed = codec.sealDecision(runId, a.stepId, { decision, digest: a.digest, requested: a.requestedAt });
    if (!(await backend.decide(runId, a.stepId, decision, sealed, Date.now()))) {
      throw runtimeError("RUNTIME_ERROR", `The call at step ${a.stepId} of run ${runId} was decided meanwhile; nothing was recorded.`);
    }
    return pendingView(codec, a);
  });
}
