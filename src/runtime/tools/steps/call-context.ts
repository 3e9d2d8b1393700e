/**
 * The state of one tool call as it moves through the steps. A class with every field set in
 * the constructor, so all contexts share one shape and allocation stays cheap.
 *
 * The AbortController is made lazily: only when a handler can read the signal (see
 * `wantsSignal` in tool-plan.ts), when a retry waits, or when the deadline fires.
 */
import type { ClaimToken } from "../../stores/idempotency-store";
import type { ClaimHeartbeat } from "./claim-heartbeat";
import type { ToolCallRequest } from "../tool-invoker-types";
import type { CallPlan } from "./call-plan";
import type { Expirable } from "./deadline-scheduler";
import type { JournalStepState } from "./journal-steps";

export class CallContext implements Expirable {
  /** The raw input until step 6, then the validated value (defaults, union tags). */
  input: unknown;
  /** The validated input's canonical JSON, once step 8 or 9 needed it (input-fingerprint.ts). */
  fingerprint: string | undefined = undefined;
  /** Built by step 7: one object per `needs` name. Never traced, never in messages. */
  needs: Record<string, unknown> | undefined = undefined;
  /** The handler's result after step 10, the validated output after step 11. */
  output: unknown = undefined;
  attempts = 0;
  cacheHit = false;
  singleFlight = false;
  idempotentReplay = false;
  /** The deadline passed or the run stopped: nothing more may start for this call. */
  timedOut = false;
  /** Step 9's idempotency claim, which step 12 completes (success) or releases (failure). */
  claimKey: string | undefined = undefined;
  claimToken: ClaimToken | undefined = undefined;
  /** Renews the claim's lease while the handler runs (stores with leases only). */
  heartbeat: ClaimHeartbeat | undefined = undefined;
  /**
   * Step 10's handler attempt while it is pending, so that a call that times out can keep
   * its claim until that attempt settles (timed-out-claim.ts); undefined once it settled.
   */
  attempt: PromiseLike<unknown> | undefined = undefined;
  /**
   * When step 12 read the clock at the start of the call (for the trace); -1 if it did not,
   * or if a step waited since (an approval prompt, an idempotent twin), so that step 10
   * reads the clock again and the handler gets its whole timeout.
   */
  startedAt = -1;
  /** Step 12's clock reading for the trace's duration (kept when `startedAt` is reset). */
  traceStart = 0;
  /** Set by the journal replay step when a journaled call runs live (journal-steps.ts). */
  journalStep: JournalStepState | undefined = undefined;
  /** The journal answered the call from a finish receipt: nothing ran (the trace says so). */
  journalReplayed = false;
  /** The approver's note (`approval: Schema`), validated: the handler's `ctx.approval`. */
  approval: unknown = undefined;
  private controller: AbortController | undefined = undefined;

  constructor(
    readonly plan: CallPlan,
    readonly req: ToolCallRequest,
  ) {
    this.input = req.input;
  }

  signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = (this.controller = new AbortController());
      if (this.timedOut) controller.abort(this.timeoutError());
      // The caller's cancellation reaches the handler through the same signal.
      const outer = this.req.signal ?? this.req.methodCall?.signal;
      if (outer?.aborted) controller.abort(outer.reason);
      else outer?.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
    }
    return this.controller.signal;
  }

  /** The deadline passed: abort the handler's signal (if one was handed out). */
  expire(): void {
    this.timedOut = true;
    this.controller?.abort(this.timeoutError());
  }

  /** The run stops: abort the handler's signal with `reason`; like a timeout, no retry follows. */
  stop(reason: unknown): void {
    this.timedOut = true;
    if (this.controller === undefined) this.controller = new AbortController();
    this.controller.abort(reason);
  }

  timeoutError() {
    return this.plan.timeoutError();
  }
}
