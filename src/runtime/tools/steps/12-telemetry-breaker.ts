/**
 * Step 12 — idempotency write, telemetry and the circuit breaker. (The cache write of step
 * 12 happens on the way back out of step 8, which wraps the handler.) This step wraps every
 * other one, so it sees every outcome, whichever step produced it: it completes step 9's
 * claim with the validated output, or releases it when the call failed.
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
import { isThenable, type PipelineRuntime, type StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

const asLumaError = (e: unknown): LumaError =>
  e instanceof LumaError ? e : runtimeError("RUNTIME_ERROR", e instanceof Error ? e.message : String(e));

const report = (rt: PipelineRuntime, ctx: CallContext, t0: number, error?: LumaError) => {
  if (rt.trace === undefined) return;
  const ms = rt.clock.now() - t0;
  // A query or command (spec §12) reports `query.call` / `command.call` instead.
  rt.trace(ctx.plan.tool.statement?.traceEvent(ctx, ms, error) ?? toolCallEvent(ctx, ms, error));
};

export const telemetryBreaker: StepFactory = (rt) => ({
  name: "12 idempotency write + telemetry + circuit breaker",
  outermost: true,
  applies: (plan) => rt.trace !== undefined || plan.agent.failureLimit !== undefined || plan.tool.options.idempotent,
  run(ctx, next) {
    const t0 = rt.trace !== undefined ? (ctx.startedAt = rt.clock.now()) : 0;
    const limit = ctx.plan.agent.failureLimit;
    const state = limit === undefined ? undefined : ctx.req.methodCall;

    if (state !== undefined && state.failures >= limit!) {
      const open = toolErrors.circuitOpen(ctx.plan.tool.name, limit!);
      report(rt, ctx, t0, open);
      throw open;
    }
    const failed = (e: unknown): never => {
      let err = asLumaError(e);
      if (state !== undefined && ++state.failures >= limit!) err = toolErrors.circuitOpened(limit!, err);
      report(rt, ctx, t0, err);
      throw err;
    };
    const fail = (e: unknown): unknown => {
      if (ctx.claimKey !== undefined) {
        const released = releaseClaim(rt, ctx);
        if (isThenable(released)) return released.then(() => failed(e));
      }
      return failed(e);
    };
    const done = (v: unknown) => {
      report(rt, ctx, t0);
      return v;
    };
    const ok = (v: unknown): unknown => {
      if (ctx.claimKey !== undefined) {
        let stored: unknown;
        try {
          stored = completeClaim(rt, ctx, v);
        } catch (e) {
          return failed(e);
        }
        if (isThenable(stored)) return stored.then(() => done(v), failed);
      }
      return done(v);
    };

    let r: unknown;
    try {
      r = next(ctx);
    } catch (e) {
      return fail(e);
    }
    return isThenable(r) ? r.then(ok, fail) : ok(r);
  },
});
