/**
 * Step 12 — idempotency write, telemetry and the circuit breaker. (The cache write of step
 * 12 happens on the way back out of step 8, which wraps the handler.) This step wraps every
 * other one, so it sees every outcome, whichever step produced it: it completes step 9's
 * claim with the validated output, or releases it when the call failed — unless the call
 * timed out with its handler still running: then the claim waits for it (timed-out-claim.ts).
 *
 * Breaker (spec §9): failures are counted in the method call's state. The failure that
 * makes the count reach the agent's `tool_failure_limit` is itself reported as
 * TOOL_CIRCUIT_OPEN (retryable false); every later call in that method call, for any tool,
 * fails at once with TOOL_CIRCUIT_OPEN without running anything. A new method call brings
 * a fresh count. Without a limit, or at top level, nothing is counted.
 */
import { LumaError, runtimeError } from "../../../diagnostics/luma-error";
import { toolCallEvent } from "../trace/tool-trace-event";
import type { CallContext } from "./call-context";
import { completeClaim, releaseClaim } from "./idempotency-write";
import { keepsClaim, keepTimedOutClaim } from "./timed-out-claim";
import { isThenable, type PipelineRuntime, type StepFactory } from "./step";
import { toolErrors } from "./tool-errors";
import { isRunEnding } from "../../base/run-ending-error";
import { isRunStop } from "../../journal/journal-errors";

const asLumaError = (e: unknown): LumaError =>
  e instanceof LumaError ? e : runtimeError("RUNTIME_ERROR", e instanceof Error ? e.message : String(e));

/*
 * The outcome handlers are module-level functions of (rt, ctx, …), not closures made per
 * call: everything they need is on the context (the trace start in `ctx.traceStart`, the
 * breaker's count in `ctx.req.methodCall`). Only an asynchronous chain makes two small
 * closures, for its `.then`.
 */

const report = (rt: PipelineRuntime, ctx: CallContext, error?: LumaError, now?: number) => {
  if (rt.trace === undefined) return;
  const ms = (now ?? rt.clock.now()) - ctx.traceStart;
  // A query or command (spec §12) reports `query.call` / `command.call` instead.
  rt.trace(ctx.plan.tool.statement?.traceEvent(ctx, ms, error) ?? toolCallEvent(ctx, ms, error), () => ({
    arguments: ctx.input,
    result: error === undefined ? ctx.output : undefined,
  }));
};

/** The breaker's count for this call: the method call's state, or undefined when nothing is counted. */
const breakerOf = (ctx: CallContext) => (ctx.plan.agent.failureLimit === undefined ? undefined : ctx.req.methodCall);

const failed = (rt: PipelineRuntime, ctx: CallContext, e: unknown): never => {
  // A run stop (a pending approval, a journal divergence) is not a tool failure: not counted.
  if (isRunStop(e)) throw e;
  let err = asLumaError(e);
  const state = breakerOf(ctx);
  const limit = ctx.plan.agent.failureLimit!;
  // The end of the run (run-ending-error.ts) is not the tool's failure: it keeps its code.
  if (state !== undefined && ++state.failures >= limit && !isRunEnding(err)) err = toolErrors.circuitOpened(limit, err);
  report(rt, ctx, err);
  throw err;
};

const fail = (rt: PipelineRuntime, ctx: CallContext, e: unknown): unknown => {
  if (ctx.claimKey !== undefined) {
    // Timed out with the handler still running: the claim stays until it settles.
    if (keepsClaim(ctx)) return failed(rt, ctx, keepTimedOutClaim(rt, ctx, e));
    const released = releaseClaim(rt, ctx);
    if (isThenable(released)) return released.then(() => failed(rt, ctx, e));
  }
  return failed(rt, ctx, e);
};

const ok = (rt: PipelineRuntime, ctx: CallContext, v: unknown): unknown => {
  // With the pipeline's own memory store, one clock reading both ends the trace and starts
  // the record's TTL (see completeClaim); any other store reads its own clock.
  let now: number | undefined;
  if (ctx.claimKey !== undefined) {
    if (rt.ownMemoryStore && rt.trace !== undefined) now = rt.clock.now();
    let stored: unknown;
    try {
      stored = completeClaim(rt, ctx, v, now);
    } catch (e) {
      return failed(rt, ctx, e);
    }
    if (isThenable(stored)) {
      return stored.then(
        () => (report(rt, ctx), v),
        (e) => failed(rt, ctx, e),
      );
    }
  }
  report(rt, ctx, undefined, now);
  return v;
};

export const telemetryBreaker: StepFactory = (rt) => ({
  name: "12 idempotency write + telemetry + circuit breaker",
  outermost: true,
  applies: (plan) => rt.trace !== undefined || plan.agent.failureLimit !== undefined || plan.tool.options.idempotent,
  run(ctx, next) {
    if (rt.trace !== undefined) ctx.traceStart = ctx.startedAt = rt.clock.now();
    const state = breakerOf(ctx);
    if (state !== undefined && state.failures >= ctx.plan.agent.failureLimit!) {
      const open = toolErrors.circuitOpen(ctx.plan.tool.name, ctx.plan.agent.failureLimit!);
      report(rt, ctx, open);
      throw open;
    }
    let r: unknown;
    try {
      r = next(ctx);
    } catch (e) {
      return fail(rt, ctx, e);
    }
    return isThenable(r)
      ? r.then(
          (v) => ok(rt, ctx, v),
          (e) => fail(rt, ctx, e),
        )
      : ok(rt, ctx, r);
  },
});
