/**
 * Approvals that wait (durable runs): under `tool_policy: "approval"` with a journal and no
 * terminal, step 5 asks the journal instead of refusing.
 *
 *   a decision recorded for this step and this exact input digest → approved: the call
 *     runs (once: its finish receipt then answers every later resume); denied: the call
 *     fails with TOOL_PERMISSION_DENIED, a value the program may catch
 *   no decision, or one for another digest (the input changed, or the row was altered), or
 *     one whose seal does not verify (set by SQL, copied from another run, step or request)
 *     → the call is recorded as pending (tool, digest, redacted arguments) and the run stops
 *     (exit 75) naming the run and the step
 *
 * Decisions come only from `luma approve` / `luma deny` (journal-commands.ts), written to
 * the journal by a person, sealed (journal/journal-codec.ts `sealDecision`; in an encrypted journal
 * only a holder of LUMA_IDEMPOTENCY_KEY can make one): nothing a model writes reaches this table — a model's tool
 * arguments are the very input being judged, and its digest is what the decision binds to.
 */
import type { CallContext } from "./call-context";
import { canonicalJson } from "../../base/canonical-json";
import type { Next, PipelineRuntime } from "./step";
import { toolErrors } from "./tool-errors";
import { journalErrors } from "../../journal/journal-errors";
import type { SealedDecision } from "../../journal/journal-codec";
import { checkPersonValue, pendingWants, type WantedValue } from "./person-values";

const SECRET_NAME = /secret|token|password|passwd|api[_-]?key|auth|credential|cookie/i;
const PREVIEW_MAX = 500;

/**
 * The arguments as `luma runs` and the terminal's approval prompt show them: values under
 * secret-looking names hidden, any string that is one of `secrets` (the tool's credential)
 * hidden, long text cut. JSON escapes control characters, so no argument can move the
 * terminal's cursor or fake a line of the prompt.
 */
const hider = (secrets: readonly string[]) => (k: string, v: unknown): unknown =>
  (k !== "" && SECRET_NAME.test(k) && v !== null && typeof v !== "object") || (typeof v === "string" && secrets.some((s) => s !== "" && v.includes(s)))
    ? "[redacted]"
    : v;

export const redactedArgs = (input: unknown, secrets: readonly string[] = []): string => {
  const text = JSON.stringify(input ?? null, hider(secrets)) ?? "null";
  return text.length > PREVIEW_MAX ? text.slice(0, PREVIEW_MAX) + "…" : text;
};

/** The input whole (not cut), with the same fields hidden: what the journal keeps for `luma ui`'s timeline. */
export const redactedInput = (input: unknown, secrets: readonly string[] = []): unknown => JSON.parse(JSON.stringify(input ?? null, hider(secrets)) ?? "null");

/**
 * The decision recorded for this call, when it is one that counts: sealed, for this step,
 * tool, input digest and request. Only the sealed decision counts: the plain `decision`
 * column is for listings, and anyone who can write the table can set it.
 */
export const sealedDecisionAt = (rt: PipelineRuntime, stepId: string, tool: string, digest: string): SealedDecision | undefined => {
  const j = rt.journal!;
  const a = j.approval(stepId);
  const d = a === undefined || a.decision === null ? undefined : j.codec.openDecision(j.runId, stepId, a.sealedDecision);
  return a !== undefined && d !== undefined && a.tool === tool && a.digest === digest && d.digest === digest && d.requested === a.requestedAt ? d : undefined;
};

const recordedDecision = (rt: PipelineRuntime, ctx: CallContext, digest: string): SealedDecision | undefined => sealedDecisionAt(rt, ctx.req.stepId!, ctx.plan.tool.name, digest);

/** A recorded value (answer or note) that the program's validator refuses: the journal was altered, or the schema changed since. */
const recordedValue = (rt: PipelineRuntime, ctx: CallContext, want: WantedValue, d: SealedDecision): unknown => {
  const j = rt.journal!;
  const r = checkPersonValue(rt, want, d.value);
  if (!r.ok) throw journalErrors.replayInvalid(j.backend.shown, j.runId, ctx.req.stepId!, ctx.plan.tool.name, toolErrors.inputInvalid(want.root, [r.problem], []));
  return r.value;
};

const digestOf = (rt: PipelineRuntime, ctx: CallContext): string =>
  ctx.journalStep?.digest ?? rt.journal!.digest(ctx.plan.tool.name, canonicalJson(ctx.req.input ?? null));

/** Whether a call with nobody to ask live waits in the run's journal for a person's decision (a served call's run does not). */
export const waitsInJournal = (rt: PipelineRuntime, ctx: CallContext): boolean => rt.journal?.waitsForPeople === true && ctx.req.stepId !== undefined;

/** Step 5 with a journal and nobody to ask live; `note`: the value an approval must carry (`approval: Schema`). */
export const awaitApproval = async (rt: PipelineRuntime, ctx: CallContext, next: Next, note?: WantedValue): Promise<unknown> => {
  const j = rt.journal!;
  const stepId = ctx.req.stepId!;
  const tool = ctx.plan.tool.name;
  const digest = digestOf(rt, ctx);
  const d = recordedDecision(rt, ctx, digest);
  if (d !== undefined) {
    if (d.decision === "denied") throw toolErrors.approvalRefused(tool);
    if (note !== undefined) ctx.approval = recordedValue(rt, ctx, note, d);
    ctx.startedAt = -1;
    return next(ctx);
  }
  await j.requestApproval(stepId, tool, digest, redactedArgs(ctx.req.input), note && pendingWants(rt, note));
  throw journalErrors.pendingApproval(j.runId, stepId, tool, note?.name);
};

/** A client tool's call with a journal and nobody to ask live: the recorded answer is its result, else the run waits for one. */
export const awaitAnswer = async (rt: PipelineRuntime, ctx: CallContext, next: Next, want: WantedValue): Promise<unknown> => {
  const j = rt.journal!;
  const stepId = ctx.req.stepId!;
  const tool = ctx.plan.tool.name;
  const digest = digestOf(rt, ctx);
  const d = recordedDecision(rt, ctx, digest);
  if (d !== undefined && d.decision === "approved") {
    ctx.output = recordedValue(rt, ctx, want, d);
    ctx.startedAt = -1;
    return next(ctx);
  }
  await j.requestApproval(stepId, tool, digest, redactedArgs(ctx.req.input), pendingWants(rt, want));
  throw journalErrors.pendingAnswer(j.runId, stepId, tool, want.name);
};
