/**
 * Step 9 — idempotency lookup (TOOL_IDEMPOTENCY_CONFLICT), and (on the way back) the
 * idempotency write of step 12.
 *
 * Key: tool name + the value at `idempotency_key` in the validated input. Fingerprint: the
 * canonical JSON of the whole validated input. Against the store's record for the key:
 *   none (or expired)       → run; store the validated output, or drop the claim on failure
 *   done, same input        → the stored output, handler not run (`idempotent_replay`)
 *   running, same input     → wait for that call, then look again (never a second run
 *                             while the first is running)
 *   done/running, other input → TOOL_IDEMPOTENCY_CONFLICT
 */
import type { ClaimResult } from "../stores/idempotency-store";
import type { CallContext } from "./call-context";
import { canonicalJson } from "./canonical-json";
import { isThenable, type Next, type PipelineRuntime, type StepFactory } from "./step";
import { toolErrors } from "./tool-errors";

const keyValue = (input: unknown, path: string[]): unknown => {
  let v: unknown = input;
  for (const part of path) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
  return v;
};

const attempt = (rt: PipelineRuntime, ctx: CallContext, next: Next, key: string, fingerprint: string): unknown => {
  const claim = rt.idempotency.claim(key, fingerprint, ctx.plan.tool.options.idempotencyTtlMs);
  return isThenable(claim)
    ? (claim as Promise<ClaimResult>).then((c) => onClaim(rt, ctx, next, key, fingerprint, c))
    : onClaim(rt, ctx, next, key, fingerprint, claim);
};

const onClaim = (rt: PipelineRuntime, ctx: CallContext, next: Next, key: string, fingerprint: string, claim: ClaimResult): unknown => {
  const tool = ctx.plan.tool;
  if (claim.kind !== "claimed" && claim.fingerprint !== fingerprint) {
    throw toolErrors.idempotencyConflict(tool.name, tool.options.idempotencyKey!.join("."));
  }
  if (claim.kind === "done") {
    ctx.idempotentReplay = true;
    return (ctx.output = claim.value);
  }
  if (claim.kind === "running") {
    ctx.startedAt = -1; // waiting on the twin must not eat into this call's own deadline
    return claim.settled.then(() => attempt(rt, ctx, next, key, fingerprint));
  }
  return run(rt, ctx, next, key, fingerprint);
};

/** Runs the rest of the chain as the key's owner; stores the output, or drops the claim on failure. */
const run = (rt: PipelineRuntime, ctx: CallContext, next: Next, key: string, fingerprint: string): unknown => {
  const store = rt.idempotency;
  const ok = (output: unknown) => {
    const stored = store.complete(key, fingerprint, output, ctx.plan.tool.options.idempotencyTtlMs);
    return isThenable(stored) ? stored.then(() => output) : output;
  };
  const fail = (e: unknown): never | PromiseLike<never> => {
    const released = store.release(key);
    if (isThenable(released)) return released.then(() => Promise.reject(e));
    throw e;
  };
  let r: unknown;
  try {
    r = next(ctx);
  } catch (e) {
    return fail(e);
  }
  return isThenable(r) ? r.then(ok, fail) : ok(r);
};

export const idempotency: StepFactory = (rt) => ({
  name: "9 idempotency",
  applies: (plan) => plan.tool.options.idempotent && plan.tool.options.idempotencyKey !== undefined,
  run(ctx, next) {
    const tool = ctx.plan.tool;
    const path = tool.options.idempotencyKey!;
    const value = keyValue(ctx.input, path);
    if (value === undefined || value === null) throw toolErrors.idempotencyKeyMissing(tool.name, path.join("."));
    // A type tag keeps the string "1" and the number 1 apart.
    const key = tool.name + (typeof value === "string" ? "\u0000s" + value : "\u0000j" + canonicalJson(value));
    return attempt(rt, ctx, next, key, canonicalJson(ctx.input));
  },
});
