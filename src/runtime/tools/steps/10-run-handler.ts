/**
 * Step 10 — run the handler with a timeout and an AbortSignal (TOOL_TIMEOUT), retrying
 * retryable errors with backoff.
 *
 * The deadline covers the whole step: every attempt and every backoff wait. When it passes,
 * the handler's signal aborts and the call fails at once with TOOL_TIMEOUT (retryable, for
 * callers such as the native tool loop); no further attempt starts, and a handler that
 * ignores the signal no longer holds the call (the shared deadline timer settles it). The
 * attempt still pending then is kept in `ctx.attempt`: an idempotent call holds its claim
 * until that attempt settles (timed-out-claim.ts), since its side effect may yet happen.
 *
 * Fast path: a handler that returns a plain value never touches the deadline machinery,
 * and neither does one that returns a promise already fulfilled (an `async` handler that
 * never awaited): `Bun.peek` reads its value at once, so the call goes on synchronously
 * instead of paying a race, a `Promise` and a microtask hop (~0.3 µs). Both have finished
 * their work, so no deadline can matter to them — the same rule as for a plain value: the
 * deadline bounds waiting, it does not judge work that is already done. A pending or
 * rejected promise (and any other thenable) costs one race against the shared timer.
 */
import type { LumaError } from "../../../diagnostics/luma-error";
import type { CallContext } from "./call-context";
import { toToolError } from "./handler-errors";
import { backoffDelay } from "./retry-backoff";
import { attachDeadline } from "./signal-deadline";
import { isThenable, type Next, type PipelineRuntime, type StepFactory } from "./step";
import type { HandlerContext } from "../../../luma-module";
import { isClientTool } from "./client-answer";
import { withJournaledQuestions } from "./journaled-questions";
import { liveAsker } from "./person-values";
import { waitsInJournal } from "./pending-approvals";

const { peek } = Bun;

const NO_NEEDS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * The handler's fourth argument (spec §10 extension, durable runs): where the call is in the
 * run and which try this is. `idempotencyKey` (`<runId>/<stepId>`) is the same for every
 * attempt of the step — retries here and re-runs after a resume — so a handler can hand it
 * to a downstream API's own idempotency key and close the crash window (docs/pipeline.md
 * "Idempotency"). `attempt` counts this process's tries plus earlier processes' begun runs
 * of the step. Calls made outside a program (no step id) get none.
 */
const handlerContext = (rt: PipelineRuntime, ctx: CallContext): HandlerContext | undefined => {
  const stepId = ctx.req.stepId;
  // A call outside a program's steps (a tool served by `luma mcp`) has no place in a run; an approver's note still reaches it.
  if (stepId === undefined) return ctx.approval === undefined ? undefined : ({ approval: ctx.approval } as HandlerContext);
  const runId = rt.runId();
  const handed: HandlerContext = { runId, stepId, attempt: (ctx.journalStep?.priorBegins ?? 0) + ctx.attempts, idempotencyKey: `${runId}/${stepId}` };
  // The approver's note (`approval: Schema`, step 5): only a tool that asks for one gets the field.
  if (ctx.approval !== undefined) handed.approval = ctx.approval;
  return handed;
};

/**
 * An `mcp:` tool's call in a journaled run with nobody to ask live: its server's questions
 * are answered from the journal, or recorded as waiting (journaled-questions.ts).
 */
const asksJournal = (rt: PipelineRuntime, ctx: CallContext): boolean =>
  waitsInJournal(rt, ctx) && (ctx.plan.tool.options as { mcp?: string }).mcp !== undefined && liveAsker(rt, ctx) === undefined;

const invoke = (rt: PipelineRuntime, ctx: CallContext): unknown => (asksJournal(rt, ctx) ? withJournaledQuestions(rt, ctx, () => invokeHandler(rt, ctx)) : invokeHandler(rt, ctx));

const invokeHandler = (rt: PipelineRuntime, ctx: CallContext): unknown => {
  const tool = ctx.plan.tool;
  // A handler proven to read only its input (`wantsSignal` false: `(input) => …`) cannot read
  // the fourth argument either, so neither the signal nor the context object is made for it.
  if (!tool.wantsSignal) return tool.handler!(ctx.input, undefined, ctx.needs ?? NO_NEEDS, undefined);
  return tool.handler!(ctx.input, ctx.signal(), ctx.needs ?? NO_NEEDS, handlerContext(rt, ctx));
};

const invokeAsync = (rt: PipelineRuntime, ctx: CallContext): Promise<unknown> => {
  try {
    return Promise.resolve(invoke(rt, ctx));
  } catch (e) {
    return Promise.reject(e);
  }
};

/** After a failed attempt: normalize the error; retry while allowed and the deadline holds. */
const retryAfter = async (rt: PipelineRuntime, ctx: CallContext, thrown: unknown, at: number): Promise<unknown> => {
  const plan = ctx.plan;
  const o = plan.tool.options;
  for (;;) {
    const err: LumaError = toToolError(rt, plan.tool, thrown);
    if (!err.retryable || ctx.attempts > o.retries) throw err;
    const wait = backoffDelay(o.retryBackoff, o.retryDelay, ctx.attempts);
    await rt.deadlines.race(rt.clock.sleep(wait, ctx.signal()), at, ctx, plan.timeoutError);
    ctx.attempts++;
    const attempt = (ctx.attempt = invokeAsync(rt, ctx));
    try {
      const v = await rt.deadlines.race(attempt, at, ctx, plan.timeoutError);
      ctx.attempt = undefined;
      return v;
    } catch (e) {
      if (ctx.timedOut) throw e;
      ctx.attempt = undefined;
      thrown = e;
    }
  }
};

/** The handler's result goes on to step 11 (and back out through the outer steps). */
const settled = (ctx: CallContext, next: Next, v: unknown): unknown => {
  ctx.output = v;
  return next(ctx);
};

export const runHandler: StepFactory = (rt) => ({
  name: "10 run handler",
  // A client tool's result comes from the caller instead (client-answer.ts).
  applies: (plan) => !isClientTool(plan.tool.options),
  run(ctx, next) {
    const plan = ctx.plan;
    // Reuse the clock reading step 12 took a moment ago, unless a step waited since (it resets it).
    const at = (ctx.startedAt >= 0 ? ctx.startedAt : rt.clock.now()) + plan.timeoutMs;
    ctx.attempts = 1;
    // A query or command bounds its lock waits by the deadline (signal-deadline.ts).
    if (plan.tool.statement !== undefined) attachDeadline(ctx.signal(), () => at - rt.clock.now());
    let out: unknown;
    try {
      out = invoke(rt, ctx);
    } catch (e) {
      return retryAfter(rt, ctx, e, at).then((v) => settled(ctx, next, v));
    }
    if (!isThenable(out)) return settled(ctx, next, out);
    if (out instanceof Promise && peek.status(out) === "fulfilled") return settled(ctx, next, peek(out));
    // Only a call that really waits makes closures.
    const done = (v: unknown) => {
      ctx.attempt = undefined;
      return settled(ctx, next, v);
    };
    ctx.attempt = out as PromiseLike<unknown>;
    return rt.deadlines.race(out as Promise<unknown>, at, ctx, plan.timeoutError).then(done, (e) => {
      if (ctx.timedOut) throw e;
      ctx.attempt = undefined;
      return retryAfter(rt, ctx, e, at).then((v) => settled(ctx, next, v));
    });
  },
});

