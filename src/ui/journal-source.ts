/**
 * `luma ui` reading a journal: each run as one row of the runs list (status, agents, start,
 * duration, tokens, cost), and one run as its timeline (every step with what it was asked,
 * what it answered, and the calls that wait for a person).
 *
 * The journal is opened per request the way `luma runs` opens it (journal-admin.ts
 * `withJournal`: as its header says it was written, never created, sealed or re-keyed), so
 * what the page shows is what is on disk now — a run in progress included. A finished run's
 * summary does not change, so it is kept by `(run, updated_at)`: the list of 10,000 runs
 * decodes each one once.
 */
import { withJournal, type AdminOptions } from "../runtime/journal/journal-admin";
import type { ApprovalRow, RunRow, StepRow } from "../runtime/journal/journal-backend";
import type { JournalCodec } from "../runtime/journal/journal-codec";
import { decodeEvals } from "../runtime/evals/eval-record";
import type { EvalView, PendingRow, RunSummary, TimelineStep, UiStatus, UsageEntry } from "./ui-types";

/** A step's detail (run-journal.ts StepDetail) read back; an unreadable one shows as none (the timeline still lists the step). */
const detailOf = (codec: JournalCodec, runId: string, s: StepRow): Record<string, unknown> | undefined => {
  if (s.detail === undefined || s.detail === null) return undefined;
  try {
    return codec.decode(runId, s.stepId + "\u0000detail", s.detail) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

const outcomeOf = (codec: JournalCodec, runId: string, s: StepRow): { ok?: unknown; error?: { code?: string; message: string } } | undefined => {
  if (s.output === null) return undefined;
  try {
    return codec.decode(runId, s.stepId, s.output) as { ok?: unknown; error?: { code?: string; message: string } };
  } catch (e) {
    return { error: { code: "RUNTIME_ERROR", message: (e as Error).message } };
  }
};

const pendingOf = (codec: JournalCodec, a: ApprovalRow): PendingRow => {
  let record: { args?: string; kind?: "approval" | "answer"; schema?: string; json_schema?: unknown } = {};
  try {
    const v = codec.decode(a.runId, a.stepId + "\u0000args", a.args);
    record = typeof v === "string" ? { args: v } : (v as typeof record);
  } catch {
    record = { args: "(unreadable)" };
  }
  return {
    step: a.stepId,
    tool: a.tool,
    digest: a.digest,
    kind: record.kind ?? "approval",
    args: record.args ?? "",
    ...(record.schema === undefined ? {} : { schema: record.schema, json_schema: record.json_schema }),
    decision: a.decision,
    requested_at: a.requestedAt,
  };
};

/**
 * The page's status: a run with a call still waiting is "waiting"; one whose waiting calls
 * were all decided since it stopped is "resumable" (run it again with its --run-id).
 */
const statusOf = (run: RunRow, approvals: ApprovalRow[]): UiStatus => {
  const open = approvals.some((a) => a.decision === null);
  if (run.status === "pending") return open ? "waiting" : "resumable";
  if (run.status === "running" && open) return "waiting";
  return run.status;
};

interface Totals {
  agents: Set<string>;
  tokensIn: number;
  tokensOut: number;
  cost: number | null;
}

const addStep = (t: Totals, d: Record<string, unknown> | undefined, out: { ok?: unknown } | undefined): void => {
  if (typeof d?.agent === "string") t.agents.add(d.agent);
  const usage = (d?.usage ?? (out?.ok as { usage?: unknown } | undefined)?.usage) as { input?: number; output?: number } | undefined;
  if (usage !== undefined && usage !== null) {
    t.tokensIn += usage.input ?? 0;
    t.tokensOut += usage.output ?? 0;
  }
  if (typeof d?.cost_usd === "number") t.cost = (t.cost ?? 0) + d.cost_usd;
};

const summaryCache = new Map<string, { updatedAt: number; summary: RunSummary; usage: UsageEntry[] }>();

/** The run's tokens and cost by model and agent (each model request), and its calls by tool: the usage charts' points. */
const usageOf = (codec: JournalCodec, runId: string, steps: StepRow[]): UsageEntry[] =>
  steps.flatMap((s): UsageEntry[] => {
    if (s.kind !== "model" && s.kind !== "tool") return [];
    const d = detailOf(codec, runId, s);
    const at = s.finishedAt ?? s.startedAt ?? 0;
    const agent = typeof d?.agent === "string" ? d.agent : "(top level)";
    if (s.kind === "tool") return [{ at, model: null, agent, tool: s.name, tokens_in: 0, tokens_out: 0, cost_usd: 0, duration_ms: s.durationMs ?? 0 }];
    const usage = (d?.usage ?? ((outcomeOf(codec, runId, s)?.ok as { usage?: unknown } | undefined)?.usage)) as { input?: number; output?: number } | null | undefined;
    return [{ at, model: s.name, agent, tool: null, tokens_in: usage?.input ?? 0, tokens_out: usage?.output ?? 0, cost_usd: typeof d?.cost_usd === "number" ? d.cost_usd : 0, duration_ms: s.durationMs ?? 0 }];
  });

const summarize = (source: number, shown: string, codec: JournalCodec, run: RunRow, steps: StepRow[], approvals: ApprovalRow[]): RunSummary => {
  const t: Totals = { agents: new Set(), tokensIn: 0, tokensOut: 0, cost: null };
  for (const s of steps) if (s.kind === "model" || s.kind === "tool") addStep(t, detailOf(codec, run.runId, s), s.kind === "model" ? outcomeOf(codec, run.runId, s) : undefined);
  const status = statusOf(run, approvals);
  const ended = status === "running" || status === "waiting" ? null : run.updatedAt;
  return {
    id: `${source}:${run.runId}`,
    source: shown,
    run: run.runId,
    program: run.program,
    status,
    agents: [...t.agents].sort(),
    started_at: run.createdAt,
    duration_ms: ended === null ? null : ended - run.createdAt,
    steps: steps.length,
    tokens_in: t.tokensIn,
    tokens_out: t.tokensOut,
    cost_usd: t.cost,
  };
};

/** Every run of the journal, newest first. */
export const journalRuns = (source: number, opts: AdminOptions): Promise<RunSummary[]> =>
  withJournal(opts, async ({ backend, codec }) => {
    const approvals = await backend.approvals(undefined);
    const byRun = new Map<string, ApprovalRow[]>();
    for (const a of approvals) byRun.set(a.runId, [...(byRun.get(a.runId) ?? []), a]);
    const out: RunSummary[] = [];
    for (const run of await backend.runs()) {
      const key = `${source}:${run.runId}`;
      const mine = byRun.get(run.runId) ?? [];
      const cached = summaryCache.get(key);
      if (cached !== undefined && cached.updatedAt === run.updatedAt && run.status !== "running" && statusOf(run, mine) === cached.summary.status) {
        out.push(cached.summary);
        continue;
      }
      const steps = await backend.steps(run.runId);
      const summary = summarize(source, backend.shown, codec, run, steps, mine);
      summaryCache.set(key, { updatedAt: run.updatedAt, summary, usage: usageOf(codec, run.runId, steps) });
      out.push(summary);
    }
    return out.reverse();
  });

const stepOf = (codec: JournalCodec, runId: string, s: StepRow): TimelineStep => {
  const d = detailOf(codec, runId, s);
  const o = outcomeOf(codec, runId, s);
  return {
    step: s.stepId,
    kind: s.kind,
    name: s.name,
    status: s.status,
    ...(o?.error?.code === undefined ? {} : { code: o.error.code }),
    ...(o?.error === undefined ? {} : { error: o.error.message }),
    attempts: s.status === "begun" ? s.begins : s.attempts,
    retries: Math.max(0, (s.status === "begun" ? s.begins : s.attempts) - 1),
    started_at: s.startedAt,
    duration_ms: s.durationMs,
    ...(d === undefined ? {} : { detail: d }),
    ...(o !== undefined && "ok" in o ? { output: o.ok } : {}),
  };
};

/** One run: its summary, its steps in order, and the calls that waited (or wait) for a person. */
export const journalRun = (source: number, opts: AdminOptions, runId: string) =>
  withJournal(opts, async ({ backend, codec }) => {
    const run = (await backend.runs()).find((r) => r.runId === runId);
    if (run === undefined) return undefined;
    const steps = await backend.steps(runId);
    const approvals = await backend.approvals(runId);
    return {
      summary: summarize(source, backend.shown, codec, run, steps, approvals),
      steps: steps.map((s) => stepOf(codec, runId, s)),
      pending: approvals.map((a) => pendingOf(codec, a)),
    };
  });

/** The usage points of every run listed so far (journalRuns fills the cache the charts read). */
export const journalUsage = (): UsageEntry[] => [...summaryCache.values()].flatMap((c) => c.usage);

/** The evals `luma eval` recorded in the journal, each case naming its run by page id. */
export const journalEvals = (source: number, opts: AdminOptions): Promise<EvalView[]> =>
  withJournal(opts, async ({ backend, codec }) =>
    decodeEvals(codec, await backend.evals()).map(({ dataset: _dataset, cases, ...r }) => ({
      ...r,
      source: backend.shown,
      cases: cases.map(({ run_id, ...c }) => ({ ...c, run: run_id === null ? null : `${source}:${run_id}` })),
    })),
  );
