/**
 * Waiting for a running claim, for every shared store (file, sqlite, postgres, redis).
 *
 * A claim this process holds wakes its in-process waiters the moment it completes or is
 * released (no polling). A claim another process holds is polled with backoff until it is
 * gone, replaced, done or past its lease; the waiter then claims again and sees which. The
 * pipeline bounds the wait by the waiter's own timeout, so a poll never needs its own limit.
 */
type MaybePromise<T> = T | Promise<T>;

export interface PollPlan {
  firstMs: number;
  maxMs: number;
}

export class ClaimWaiters {
  private readonly local = new Map<string, { settled: Promise<void>; wake: () => void }>();

  constructor(private readonly poll: PollPlan) {}

  /** Registers a claim this process now holds. */
  own(token: string): void {
    let wake!: () => void;
    const settled = new Promise<void>((r) => (wake = r));
    this.local.set(token, { settled, wake });
  }

  /** Whether this store still holds the claim `token` (claimed here, not yet completed or released). */
  holds(token: string): boolean {
    return this.local.has(token);
  }

  /** The claim completed or was released: wake its in-process waiters. */
  settle(token: string): void {
    const entry = this.local.get(token);
    if (entry === undefined) return;
    this.local.delete(token);
    entry.wake();
  }

  /**
   * Resolves once the claim `token` no longer holds its key. `stillHeld` asks the backend;
   * a failing check resolves too, so the waiter claims again and meets the error there.
   */
  whenSettled(token: string, stillHeld: () => MaybePromise<boolean>): Promise<void> {
    const local = this.local.get(token);
    if (local !== undefined) return local.settled;
    return new Promise<void>((resolve) => {
      let pause = this.poll.firstMs;
      const check = async () => {
        let held: boolean;
        try {
          held = await stillHeld();
        } catch {
          held = false;
        }
        if (!held) return resolve();
        pause = Math.min(pause * 2, this.poll.maxMs);
        setTimeout(check, pause).unref(); // the caller's own deadline keeps the process alive, not this poll
      };
      setTimeout(check, pause).unref();
    });
  }
}
