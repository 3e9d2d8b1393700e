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

const SECRET_NAME = /secret|token|password|passwd|api[_-]?key|auth|credential|cookie/i;
const PREVIEW_MAX = 500;

/**
 * The arguments as `luma runs` and the terminal's approval prompt show them: values under
 * secret-looking names hidden, any string that is one of `secrets` (the tool's credential)
 * hidden, long text cut. JSON escapes control characters, so no argument can move the
 * terminal's cursor or fake a line of the prompt.
 */
export const redactedArgs = (input: unknown, secrets: readonly string[] = []): string => {
  const hide = (k: string, v: unknown): unknown =>
    (k !== "" && SECRET_NAME.test(k) && v !== null && typeof v !== "object") || (typeof v === "string" && secrets.some((s) => s !== "" && v.includes(s)))
      ? "[redacted]"
      : v;
  const text = JSON.stringify(input ?? null, hide) ?? "null";
  return text.length > PREVIEW_MAX ? text.slice(0, PREVIEW_MAX) + "…" : text;
};

export const awaitApproval = async (rt: PipelineRuntime, ctx: CallContext, next: Next): Promise<unknown> => {
  const j = rt.journal!;
  const stepId = ctx.req.stepId!;
  const tool = ctx.plan.tool.name;
  const digest = ctx.journalStep?.digest ?? j.digest(tool, canonicalJson(ctx.req.input ?? null));
  const a = j.approval(stepId);
  // Only the sealed decision counts: the plain `decision` column is for listings, and anyone who can write the table can set it.
  const d = a === undefined || a.decision === null ? undefined : j.codec.openDecision(j.runId, stepId, a.sealedDecision);
  if (a !== undefined && d !== undefined && a.tool === tool && a.digest === digest && d.digest === digest && d.requested === a.requestedAt) {
    if (d.decision === "denied") throw toolErrors.approvalRefused(tool);
    ctx.startedAt = -1;
    return next(ctx);
  }
  await j.requestApproval(stepId, tool, digest, redactedArgs(ctx.req.input));
  throw journalErrors.pendingApproval(j.runId, stepId, tool);
};
