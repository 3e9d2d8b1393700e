/**
 * Time as the tool pipeline sees it: `now()` for durations, deadlines and idempotency TTLs,
 * `sleep()` for retry backoff, `setTimer()` for the one shared deadline timer.
 *
 * Injected so tests drive time by hand (a fake clock records backoff waits and fires
 * deadlines on `advance`) instead of waiting. `now()` is wall-clock milliseconds with a
 * fractional part: wall-clock because idempotency records may outlive the process in a
 * persistent store, fractional so `duration_ms` of a fast call is not always 0.
 */

/** A pending timer. `unref` lets the process exit while it is pending; `ref` undoes that. */
export interface ClockTimer {
  cancel(): void;
  ref(): void;
  unref(): void;
}

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or early (without rejecting) once `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  setTimer(ms: number, fire: () => void): ClockTimer;
}

const origin = performance.timeOrigin;

export const systemClock: Clock = {
  now: () => origin + performance.now(),

  sleep(ms, signal) {
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
    });
  },

  setTimer(ms, fire) {
    const timer = setTimeout(fire, Math.max(0, ms));
    return {
      cancel: () => clearTimeout(timer),
      ref: () => void timer.ref(),
      unref: () => void timer.unref(),
    };
  },
};
