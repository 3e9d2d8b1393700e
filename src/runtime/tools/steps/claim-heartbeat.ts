/**
 * The heartbeat of an idempotency claim: while its handler runs, the claim's lease is
 * renewed every third of the lease (`store.renew`), so a long handler — or one that
 * ignored its AbortSignal and runs on after TOOL_TIMEOUT (timed-out-claim.ts) — never
 * lets its lease pass while it may still do its side effect, and no other worker runs the
 * key meanwhile. A third leaves two more beats before the lease ends if one is slow or
 * fails.
 *
 * One timer per claim, re-armed after each beat, on the pipeline's clock (tests drive it)
 * and unref'd: a heartbeat never keeps the process alive — when the process ends, its
 * claims simply stop being renewed and their leases free the keys. Most calls finish long
 * before their first beat (the lease is the call's timeout plus 10 s), so the usual cost is
 * one timer set and cancelled, and only for stores with leases: the pipeline's memory store
 * shares the process with its claims and gets no heartbeat (step.ts `heartbeats`).
 *
 * Fencing: `renew` answers false once the claim is lost (taken over after a stall longer
 * than the lease, completed, released). The heartbeat then stops for good; the owner's
 * later `complete` is fenced by the store the same way, so it cannot overwrite the winner.
 * A store error (the network, a busy lock) is not a loss: the next beat tries again.
 *
 * These timers need the main thread. A handler that blocks it stops them, so the stores
 * shared between machines also renew off the thread (`renewOffThread`, a worker with its own
 * connection: stores/off-thread-renewal.ts), and the stores of one machine take a lapsed
 * claim over only once its owner's process no longer runs (stores/claim-owner.ts).
 */
import type { Clock, ClockTimer } from "../../base/clock";
import type { ClaimToken, IdempotencyStore } from "../../stores/idempotency-store";
import { isThenable } from "./step";

export class ClaimHeartbeat {
  /** Armed only once the previous renew answered, so renewals never pile up on a slow store. */
  private timer: ClockTimer | undefined;
  private stopped = false;
  /** Stops the store's off-thread renewals of this claim, when it has them. */
  private readonly stopOffThread: (() => void) | undefined;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly key: string,
    private readonly token: ClaimToken,
    private readonly leaseMs: number,
  ) {
    this.stopOffThread = store.renewOffThread?.(key, token, leaseMs);
    this.arm();
  }

  /** The claim was completed or released (or handed on), or lost: no more renewals. */
  stop(): void {
    this.stopOffThread?.();
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private arm(): void {
    this.timer = this.clock.setTimer(Math.max(1, this.leaseMs / 3), () => this.beat());
    this.timer.unref();
  }

  private beat(): void {
    this.timer = undefined;
    if (this.stopped) return;
    let renewed: unknown;
    try {
      renewed = this.store.renew(this.key, this.token, this.leaseMs);
    } catch {
      return this.arm(); // a store error: try again next beat
    }
    if (!isThenable(renewed)) return this.after(renewed === true);
    renewed.then(
      (held) => this.after(held === true),
      () => this.after(true),
    );
  }

  /** `held` false: the store said the claim is lost, so renewing stops for good. */
  private after(held: boolean): void {
    if (this.stopped) return;
    if (held) this.arm();
    else this.stop();
  }
}
