/**
 * The idempotency write of step 12 ("cache/idempotency write + telemetry"): the claim
 * step 9 took is completed with the validated output when the call succeeds, and released
 * when it fails (errors are not stored, so the key may run again).
 *
 * It runs inside step 12's own continuation rather than in a `.then` of step 9, which
 * saves a promise hop per idempotent call (about a third of a microsecond).
 */
import type { CallContext } from "./call-context";
import { isThenable, type PipelineRuntime } from "./step";

/** Frees the key; a store error here is dropped, since the call's own error is the one to report. */
export const releaseClaim = (rt: PipelineRuntime, ctx: CallContext): void | PromiseLike<unknown> => {
  const key = ctx.claimKey;
  if (key === undefined) return;
  const token = ctx.claimToken!;
  ctx.claimKey = ctx.claimToken = undefined;
  try {
    const released = rt.idempotency.release(key, token);
    if (isThenable(released)) return released.then(undefined, () => {});
  } catch {
    // see above
  }
};

/**
 * Stores `output` under the claim. Returns nothing when done synchronously, or a promise; a
 * store failure (I/O) releases the claim and surfaces as the call's error.
 */
export const completeClaim = (rt: PipelineRuntime, ctx: CallContext, output: unknown): void | PromiseLike<unknown> => {
  const key = ctx.claimKey!;
  const token = ctx.claimToken!;
  const failed = (e: unknown) => {
    const released = releaseClaim(rt, ctx);
    if (isThenable(released)) return released.then(() => Promise.reject(e));
    throw e;
  };
  let stored: unknown;
  try {
    stored = rt.idempotency.complete(key, token, output, ctx.plan.tool.options.idempotencyTtlMs);
  } catch (e) {
    return failed(e);
  }
  if (isThenable(stored)) {
    return stored.then(() => {
      ctx.claimKey = ctx.claimToken = undefined;
    }, failed);
  }
  ctx.claimKey = ctx.claimToken = undefined;
};
