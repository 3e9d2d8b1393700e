/**
 * Step 9 — idempotency lookup (TOOL_IDEMPOTENCY_CONFLICT). The write that goes with it is
 * step 12's (idempotency-write.ts): complete the claim on success, release it on failure.
 *
 * Key: tool name + the value at `idempotency_key` in the validated input. Fingerprint: the
 * canonical JSON of the whole validated input, written only when a store reads it
 * (claim-request.ts: a fresh key in the memory store never does). Against the store's
 * record for the key:
 *   none (or expired)         → claim it and run
 *   done, same input          → the stored output, handler not run (`idempotent_replay`)
 *   running, same input       → wait for that call (at most this call's own timeout), then
 *                               look again: never a second run while the first is running
 *   done/running, other input → TOOL_IDEMPOTENCY_CONFLICT
 *
 * The claim's lease (in-progress expiry) is the call's timeout plus LEASE_MARGIN_MS, and a
 * heartbeat renews it while the handler runs (claim-heartbeat.ts), so only an owner that
 * died (or stalled longer than the lease) loses it. A call that timed out keeps its claim
 * until its handler settles (timed-out-claim.ts): its outcome is unknown. A waiter on such
 * a claim of this process gets, at the end of its wait, an error that says so.
 *
 * LUMA_TEST_LEASE_MS (tests only) replaces the lease, so that process tests can run
 * handlers longer than a lease without waiting 10 s; unset, it costs one comparison.
 */
import type { ClaimResult } from "../../stores/idempotency-store";
import type { CallContext } from "./call-context";
import { canonicalJson } from "../../base/canonical-json";
import { ClaimHeartbeat } from "./claim-heartbeat";
import { PipelineClaimRequest } from "./claim-request";
import { inputFingerprintOf } from "./input-fingerprint";
import { isThenable, type Next, type PipelineRuntime, type StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

/** Room for the store's own I/O (lock waits, fsync) after the handler's deadline. */
export const LEASE_MARGIN_MS = 10_000;

const TEST_LEASE_MS = Number(process.env.LUMA_TEST_LEASE_MS) > 0 ? Number(process.env.LUMA_TEST_LEASE_MS) : undefined;

const keyValue = (input: unknown, path: readonly string[]): unknown => {
  if (path.length === 1) return input !== null && typeof input === "object" ? (input as Record<string, unknown>)[path[0]] : undefined;
  let v: unknown = input;
  for (const part of path) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
  return v;
};

/** The call's request; its fingerprint is deferred when the input allows (claim-request.ts). */
const claimRequest = (ctx: CallContext, key: string): PipelineClaimRequest => {
  const plan = ctx.plan;
  const tool = plan.tool;
  const ttlMs = tool.options.idempotencyTtlMs;
  const leaseMs = TEST_LEASE_MS ?? plan.timeoutMs + LEASE_MARGIN_MS;
  const deferred = tool.deferredFingerprint;
  if (ctx.fingerprint === undefined && deferred !== undefined) {
    const snapshot = deferred.snapshot(ctx.input);
    if (snapshot !== undefined) return new PipelineClaimRequest(key, undefined, snapshot, deferred, ttlMs, leaseMs);
  }
  return new PipelineClaimRequest(key, inputFingerprintOf(ctx), undefined, undefined, ttlMs, leaseMs);
};

const attempt = (rt: PipelineRuntime, ctx: CallContext, next: Next, req: PipelineClaimRequest): unknown => {
  const claim = rt.idempotency.claim(req);
  return isThenable(claim) ? (claim as Promise<ClaimResult>).then((c) => onClaim(rt, ctx, next, req, c)) : onClaim(rt, ctx, next, req, claim);
};

const onClaim = (rt: PipelineRuntime, ctx: CallContext, next: Next, req: PipelineClaimRequest, claim: ClaimResult): unknown => {
  switch (claim.kind) {
    case "claimed":
      // Step 12 completes the claim with the validated output, or releases it on failure.
      ctx.claimKey = req.key;
      ctx.claimToken = claim.token;
      if (rt.heartbeats) ctx.heartbeat = new ClaimHeartbeat(rt.idempotency, rt.clock, req.key, claim.token, req.leaseMs);
      return next(ctx);
    case "done":
      ctx.idempotentReplay = true;
      return (ctx.output = claim.value);
    case "conflict": {
      const tool = ctx.plan.tool;
      throw toolErrors.idempotencyConflict(tool.name, tool.options.idempotencyKey!.join("."));
    }
    case "running": {
      const tool = ctx.plan.tool;
      const at = rt.clock.now() + ctx.plan.timeoutMs;
      const stillRunning = () => {
        const path = tool.options.idempotencyKey!.join(".");
        const ms = ctx.plan.timeoutMs;
        return rt.timedOutClaims.has(req.key) ? toolErrors.idempotencyOutcomeUnknown(tool.name, path, ms) : toolErrors.idempotencyStillRunning(tool.name, path, ms);
      };
      ctx.startedAt = -1; // waiting on the twin must not eat into this call's own deadline
      return rt.deadlines.race(claim.settled, at, ctx, stillRunning).then(() => attempt(rt, ctx, next, req));
    }
  }
};

export const idempotency: StepFactory = (rt) => ({
  name: "9 idempotency",
  applies: (plan) => plan.tool.options.idempotent && plan.tool.options.idempotencyKey !== undefined,
  run(ctx, next) {
    const tool = ctx.plan.tool;
    const path = tool.options.idempotencyKey!;
    const value = keyValue(ctx.input, path);
    if (value === undefined || value === null) throw toolErrors.idempotencyKeyMissing(tool.name, path.join("."));
    // A type tag keeps the string "1" and the number 1 apart. The string prefix is made once
    // per tool: one concatenation per call instead of two.
    const key = typeof value === "string" ? (tool.stringKeyPrefix ??= tool.name + "\u0000s") + value : tool.name + "\u0000j" + canonicalJson(value);
    return attempt(rt, ctx, next, claimRequest(ctx, key));
  },
});
