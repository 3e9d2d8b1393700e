/**
 * The journal in the tool call pipeline (spec §9's ordered list, pipeline.ts): two steps,
 * for every tool call, query and command that carries a step id.
 *
 *   journal replay   first inside step 12 (which stays outermost): the call's receipt is
 *                    looked up by step id; a finished one answers with its recorded outcome
 *                    and nothing else runs (no policy prompt, no handler, no store) — its
 *                    value checked against the tool's output schema first. Else the
 *                    call goes on, and its outcome — value or error — is recorded as the
 *                    finish receipt on the way out. Step 12 then sees a replayed failure as
 *                    it saw the original, so the circuit breaker counts the same way.
 *   journal begin    just before step 10: the begin receipt, on disk before the handler runs.
 *                    A call answered before that (a cache hit, an idempotent replay, a refusal)
 *                    has only its finish receipt.
 *
 * The digest is of the call as the program made it (tool name and the canonical JSON of the
 * raw input), so it can be compared before any step looks at the input. A run stop (a
 * pending approval, a lost lease, a divergence) is never recorded as an outcome.
 */
import type { CallContext } from "./call-context";
import { canonicalJson } from "../../base/canonical-json";
import { isThenable, type Next, type PipelineRuntime, type StepFactory } from "./step";
import { LumaError } from "../../../diagnostics/luma-error";
import { validatedOutput } from "./11-output-validation";
import type { StepKind, StepRow } from "../../journal/journal-backend";
import { outcomeOfError } from "../../journal/journal-codec";
import { isRunStop, journalErrors } from "../../journal/journal-errors";
import type { RunJournal, StepDetail } from "../../journal/run-journal";
import { redactedInput } from "./pending-approvals";

/** What the replay step learnt about a call that runs live; read by the begin step, step 5 and step 10. */
export interface JournalStepState {
  id: string;
  kind: StepKind;
  digest: string;
  /** Begin receipts of earlier processes for this step. */
  priorBegins: number;
  /** `performance.now()` at the start (the receipt's duration). */
  t0: number;
  /** The call's input with secrets hidden, made once for both receipts (callDetail). */
  shownInput?: unknown;
}

const kindOf = (ctx: CallContext): StepKind =>
  ctx.plan.tool.statement === undefined ? "tool" : ctx.plan.tool.options.sideEffects === "write" ? "command" : "query";

/**
 * What the timeline of `luma ui` shows of the call besides its outcome: its input as the
 * program made it (secret-looking fields and the tool's credential value hidden, as
 * `luma runs` shows a waiting call's), the calling agent and how the pipeline answered.
 * `needs` values are never in it: they are built after this, in step 7.
 */
const callDetail = (rt: PipelineRuntime, ctx: CallContext, s: JournalStepState, finished: boolean): StepDetail => {
  // The raw input (`ctx.req.input`) is the same at both receipts: it is copied and redacted once.
  if (s.shownInput === undefined) {
    const credential = ctx.plan.tool.options.credential;
    const secret = credential === undefined ? undefined : rt.env[credential];
    s.shownInput = redactedInput(ctx.req.input, secret ? [secret] : []);
  }
  return {
    input: s.shownInput,
    mode: ctx.req.mode,
    ...(ctx.req.agent === undefined ? {} : { agent: ctx.req.agent.name }),
    ...(finished ? { cache_hit: ctx.cacheHit, idempotent_replay: ctx.idempotentReplay, single_flight: ctx.singleFlight } : {}),
  };
};

const recordOk = async (rt: PipelineRuntime, j: RunJournal, ctx: CallContext, s: JournalStepState, v: unknown): Promise<unknown> => {
  await j.finish(s.id, s.kind, ctx.plan.tool.name, s.digest, { ok: v ?? null }, s.priorBegins + Math.max(1, ctx.attempts), s.t0, callDetail(rt, ctx, s, true));
  return v;
};

const recordFailure = async (rt: PipelineRuntime, j: RunJournal, ctx: CallContext, s: JournalStepState, e: unknown): Promise<never> => {
  if (!isRunStop(e)) await j.finish(s.id, s.kind, ctx.plan.tool.name, s.digest, outcomeOfError(e), s.priorBegins + Math.max(1, ctx.attempts), s.t0, callDetail(rt, ctx, s, true));
  throw e;
};

const live = (rt: PipelineRuntime, j: RunJournal, ctx: CallContext, next: Next, s: JournalStepState): Promise<unknown> => {
  let r: unknown;
  try {
    r = next(ctx);
  } catch (e) {
    return recordFailure(rt, j, ctx, s, e);
  }
  return isThenable(r)
    ? (r as Promise<unknown>).then(
        (v) => recordOk(rt, j, ctx, s, v),
        (e) => recordFailure(rt, j, ctx, s, e),
      )
    : recordOk(rt, j, ctx, s, r);
};

/**
 * A recorded value goes through the tool's output schema as a live one does (step 11, which
 * a replay skips): what the journal holds is data anyone with the file could have edited. A
 * value the schema refuses stops the run naming the journal; nothing runs in its place.
 */
const replayValidated = (rt: PipelineRuntime, j: RunJournal, ctx: CallContext, id: string, row: StepRow): unknown => {
  const value = j.replay(row);
  try {
    return validatedOutput(rt, ctx, value);
  } catch (e) {
    if (e instanceof LumaError) throw journalErrors.replayInvalid(j.backend.shown, j.runId, id, ctx.plan.tool.name, e);
    throw e;
  }
};

export const journalReplay: StepFactory = (rt: PipelineRuntime) => ({
  name: "journal replay",
  applies: () => rt.journal !== undefined,
  run(ctx, next) {
    const id = ctx.req.stepId;
    if (id === undefined) return next(ctx);
    const j = rt.journal!;
    const kind = kindOf(ctx);
    const name = ctx.plan.tool.name;
    const digest = j.digest(name, canonicalJson(ctx.req.input ?? null));
    const row = j.lookup(id, kind, name, digest);
    if (j.isFinished(row)) {
      ctx.journalReplayed = true;
      return replayValidated(rt, j, ctx, id, row);
    }
    const s: JournalStepState = { id, kind, digest, priorBegins: row?.begins ?? 0, t0: performance.now() };
    ctx.journalStep = s;
    return live(rt, j, ctx, next, s);
  },
});

export const journalBegin: StepFactory = (rt: PipelineRuntime) => ({
  name: "journal begin",
  applies: () => rt.journal !== undefined,
  run(ctx, next) {
    const s = ctx.journalStep;
    if (s === undefined) return next(ctx);
    return rt.journal!.begin(s.id, s.kind, ctx.plan.tool.name, s.digest, callDetail(rt, ctx, s, false)).then(() => {
      ctx.startedAt = -1; // the receipt's fsync must not eat into the handler's timeout
      return next(ctx);
    });
  },
});
