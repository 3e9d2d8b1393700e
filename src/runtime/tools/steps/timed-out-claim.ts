/**
 * An idempotent call that timed out while its handler still runs keeps its claim. A
 * timeout says nothing about the side effect: the handler may have ignored its AbortSignal
 * and may still charge the card. Releasing the claim at the timeout let a retry — the
 * program's own, a model's, another worker's — run the key again while the first handler
 * was still going (measured: one execution per retry). So step 12 hands the claim to the
 * pending attempt instead (`ctx.attempt`, kept by step 10), and when that attempt settles:
 *
 *   fulfilled → its output goes through output validation (step 11's `validatedOutput`)
 *               and completes the claim: the side effect happened, so it is recorded, and
 *               every later call with the key replays it;
 *   rejected, or an invalid output → the claim is released (errors are not stored).
 *
 * Meanwhile the heartbeat keeps renewing the lease (claim-heartbeat.ts), so the key stays
 * claimed on every backend for as long as the handler runs in this process; if the process
 * ends first, the lease frees the key. The caller gets TOOL_TIMEOUT (retryable: a retry is
 * safe, it waits on the claim) saying the outcome is unknown and the key stays claimed. A
 * waiter on the key in this process gets TOOL_IDEMPOTENCY_CONFLICT saying the same when its
 * own wait ends (09-idempotency.ts reads `rt.timedOutClaims`); a waiter in another process
 * sees a running claim, as for any call in flight.
 */
import { LumaError } from "../../../diagnostics/luma-error";
import type { CallContext } from "./call-context";
import { completeClaim, releaseClaim } from "./idempotency-write";
import { validatedOutput } from "./11-output-validation";
import type { PipelineRuntime } from "./step";
import { toolErrors } from "./tool-errors";

const ignore = () => {};

/** Whether the failing call holds a claim that must outlive it: it timed out with an attempt pending. */
export const keepsClaim = (ctx: CallContext): boolean => ctx.timedOut && ctx.attempt !== undefined && ctx.claimKey !== undefined;

/** Hands the claim to the pending attempt; returns the caller's error (the timeout, saying so). */
export const keepTimedOutClaim = (rt: PipelineRuntime, ctx: CallContext, e: unknown): unknown => {
  const attempt = ctx.attempt!;
  const key = ctx.claimKey!;
  ctx.attempt = undefined;
  rt.timedOutClaims.set(key, ctx);
  const settled = () => {
    if (rt.timedOutClaims.get(key) === ctx) rt.timedOutClaims.delete(key);
  };
  attempt
    .then(
      (v) => {
        let out: unknown;
        try {
          out = validatedOutput(rt, ctx, v);
        } catch {
          return releaseClaim(rt, ctx);
        }
        return completeClaim(rt, ctx, out, undefined);
      },
      () => releaseClaim(rt, ctx),
    )
    // A store failure here has no caller left to tell: the lease frees the key then.
    .then(settled, settled)
    .then(undefined, ignore);
  if (!(e instanceof LumaError) || e.code !== "TOOL_TIMEOUT") return e;
  return toolErrors.timeoutClaimKept(e, ctx.plan.tool.options.idempotencyKey!.join("."));
};
