/**
 * What `luma runs`, `luma runs show`, `luma approve` and `luma deny` do, as data (the CLI
 * renders it, cli/journal-commands.ts). They open the journal without taking any run's
 * lease: reading is always safe, and a decision is one fenced-by-state update (it lands
 * only on a call still pending, for the digest that call recorded).
 *
 * A call may wait for a value as well as a yes: a client tool's answer (`luma runs answer
 * --json`, kind "answer") or an approval's note (`approval: Schema`: `luma approve --json`).
 * The waiting row keeps the wanted schema (its name and JSON Schema), so the value is judged
 * here, without the program: one that does not fit is refused naming the field, and nothing
 * is recorded. The value is sealed with the decision; the run validates it again on resume.
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
import { jsonSchemaProblem } from "../../schema/json-schema-check";

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
  /** "approval": a yes/no (with a note when `schema` is set); "answer": a client tool's result. */
  kind: "approval" | "answer";
  tool: string;
  digest: string;
  args: string;
  /** The schema of the value the person must supply, when there is one. */
  schema?: string;
  requested_at: string;
}

/** What a waiting row's arguments record holds: the preview text, or (Luma ≥ client tools) the preview with the wanted value's schema. */
interface PendingRecord {
  args: string;
  kind?: "approval" | "answer";
  schema?: string;
  json_schema?: Record<string, unknown>;
}

const pendingRecord = (codec: JournalCodec, a: ApprovalRow): PendingRecord => {
  const v = codec.decode(a.runId, a.stepId + "\u0000args", a.args);
  return typeof v === "string" ? { args: v } : (v as PendingRecord);
};

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

export const pendingView = (codec: JournalCodec, a: ApprovalRow): PendingView => {
  const r = pendingRecord(codec, a);
  return {
    run: a.runId,
    step: a.stepId,
    kind: r.kind ?? "approval",
    tool: a.tool,
    digest: a.digest,
    args: r.args,
    ...(r.schema === undefined ? {} : { schema: r.schema }),
    requested_at: iso(a.requestedAt)!,
  };
};

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

const WAITING_FOR = { approval: "approval", answer: "an answer" } as const;

const pendingOf = async (backend: JournalBackend, codec: JournalCodec, runId: string, step: string | undefined, kind: PendingView["kind"]): Promise<ApprovalRow> => {
  const open = (await backend.approvals(runId)).filter((a) => a.decision === null);
  const waiting = open.filter((a) => (pendingRecord(codec, a).kind ?? "approval") === kind);
  const what = WAITING_FOR[kind];
  if (step !== undefined) {
    const a = waiting.find((w) => w.stepId === step);
    if (a === undefined) {
      const other = open.find((w) => w.stepId === step);
      const hint = other === undefined ? "" : kind === "answer" ? ` (it waits for approval: luma approve)` : ` (it waits for an answer: luma runs answer)`;
      throw runtimeError("RUNTIME_ERROR", `Run ${runId} has no call waiting for ${what} at step ${step}${hint}.`);
    }
    return a;
  }
  if (waiting.length === 0) throw runtimeError("RUNTIME_ERROR", `Run ${runId} has no call waiting for ${what}.`);
  if (waiting.length > 1) throw runtimeError("RUNTIME_ERROR", `Run ${runId} has ${waiting.length} calls waiting for ${what} (${waiting.map((w) => w.stepId).join(", ")}): pass --step STEP.`);
  return waiting[0];
};

/** The person's `--json` text as a value of the wanted schema; refused (nothing recorded) when it is not JSON or does not fit. */
const personValue = (r: PendingRecord, json: string, where: string): unknown => {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw runtimeError("VALUE_INVALID", `Refused: --json is not JSON (${(e as Error).message}); nothing was recorded.`);
  }
  const problem = r.json_schema === undefined ? undefined : jsonSchemaProblem(r.json_schema, value, r.schema ?? "value");
  if (problem !== undefined) throw runtimeError("VALUE_INVALID", `Refused: the --json value is not a valid ${r.schema} for ${where}: ${problem} Nothing was recorded.`);
  return value;
};

const recordDecision = async (backend: JournalBackend, codec: JournalCodec, runId: string, a: ApprovalRow, decision: Decision, value?: { value: unknown }) => {
  const sealed = codec.sealDecision(runId, a.stepId, { decision, digest: a.digest, requested: a.requestedAt, ...value });
  if (!(await backend.decide(runId, a.stepId, decision, sealed, Date.now()))) {
    throw runtimeError("RUNTIME_ERROR", `The call at step ${a.stepId} of run ${runId} was decided meanwhile; nothing was recorded.`);
  }
};

const checkDigest = (runId: string, a: ApprovalRow, digest: string | undefined) => {
  if (digest !== undefined && digest !== a.digest) {
    throw runtimeError(
      "TOOL_PERMISSION_DENIED",
      `Refused: --digest ${digest} is not the input digest of the call waiting at step ${a.stepId} of run ${runId} (${a.digest}); nothing was recorded.`,
    );
  }
};

/** `luma approve` / `luma deny`; `json`: the approver's note, required by a call whose tool says `approval: Schema`. */
export async function decide(
  opts: AdminOptions,
  decision: Decision,
  runId: string,
  step: string | undefined,
  digest: string | undefined,
  json?: string,
): Promise<PendingView> {
  return withJournal(opts, async ({ backend, codec }) => {
    const a = await pendingOf(backend, codec, runId, step, "approval");
    checkDigest(runId, a, digest);
    const r = pendingRecord(codec, a);
    let note: { value: unknown } | undefined;
    if (decision === "approved" && r.schema !== undefined) {
      if (json === undefined) {
        throw runtimeError("VALUE_INVALID", `Refused: tool '${a.tool}' needs a ${r.schema} with its approval: pass --json '{…}' (a ${r.schema}); nothing was recorded.`);
      }
      note = { value: personValue(r, json, `tool '${a.tool}''s approval`) };
    } else if (json !== undefined) {
      throw runtimeError("VALUE_INVALID", decision === "denied" ? "Refused: luma deny takes no --json; nothing was recorded." : `Refused: tool '${a.tool}' takes no value with its approval (it declares no approval schema); nothing was recorded.`);
    }
    await recordDecision(backend, codec, runId, a, decision, note);
    return pendingView(codec, a);
  });
}

/** `luma runs answer`: a client tool's result, judged against its return schema before it is recorded. */
export async function answer(opts: AdminOptions, runId: string, step: string | undefined, digest: string | undefined, json: string): Promise<PendingView> {
  return withJournal(opts, async ({ backend, codec }) => {
    const a = await pendingOf(backend, codec, runId, step, "answer");
    checkDigest(runId, a, digest);
    const value = personValue(pendingRecord(codec, a), json, /#q\d+$/.test(a.stepId) ? `the MCP server's question during tool '${a.tool}'` : `client tool '${a.tool}'`);
    await recordDecision(backend, codec, runId, a, "approved", { value });
    return pendingView(codec, a);
  });
}
