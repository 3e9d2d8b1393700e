/**
 * One shared timer for every in-flight tool call's deadline, instead of a setTimeout +
 * clearTimeout pair per call (measured at ~0.13 µs, plus ~0.4 µs for the AbortController
 * it would abort; the controller is now made only when a handler can read the signal).
 *
 * The timer is armed for the earliest deadline. Most calls finish long before it, so the
 * common path is a Set add and delete. When it fires, it expires what is due and re-arms
 * for the earliest deadline left. While no call is in flight the timer is unref'd, so an
 * idle pipeline never holds the process open; while one is, it is ref'd, so a handler whose
 * promise never settles still ends with TOOL_TIMEOUT instead of a silent exit.
 */
import type { Clock, ClockTimer } from "../clock";

export interface Expirable {
  /** Called once, when the deadline passes before the work settled. */
  expire(): void;
}

class Deadline<T> {
  constructor(
    readonly at: number,
    readonly owner: Expirable,
    readonly resolve: (v: T) => void,
    readonly reject: (e: unknown) => void,
  ) {}
}

export class DeadlineScheduler {
  private readonly active = new Set<Deadline<any>>();
  private timer: ClockTimer | undefined;
  private timerAt = Infinity;

  constructor(private readonly clock: Clock) {}

  /**
   * Settles like `work`, unless `at` passes first: then `owner.expire()` runs and the result
   * rejects with `onExpire()`. Work that ignores cancellation no longer holds the caller.
   */
  race<T>(work: Promise<T>, at: number, owner: Expirable, onExpire: () => unknown): Promise<T> {
    if (at <= this.clock.now()) {
      // Already past (a long backoff wait): nothing more may start.
      work.then(undefined, () => {});
      owner.expire();
      return Promise.reject(onExpire());
    }
    return new Promise<T>((resolve, reject) => {
      const d = new Deadline<T>(at, owner, resolve, () => reject(onExpire()));
      this.add(d);
      work.then(
        (v) => {
          if (this.remove(d)) resolve(v);
        },
        (e) => {
          if (this.remove(d)) reject(e);
        },
      );
    });
  }

  private add(d: Deadline<any>): void {
    this.active.add(d);
    if (d.at < this.timerAt) this.arm(d.at);
    else if (this.active.size === 1) this.timer?.ref();
  }

  /** False when the deadline already fired (the race is settled). */
  private remove(d: Deadline<any>): boolean {
    if (!this.active.delete(d)) return false;
    if (this.active.size === 0) this.timer?.unref();
    return true;
  }

  private arm(at: number): void {
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = this.clock.setTimer(at - this.clock.now(), () => this.fire());
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.clock.now();
    let next = Infinity;
    const due: Deadline<any>[] = [];
    for (const d of this.active) {
      if (d.at <= now) due.push(d);
      else if (d.at < next) next = d.at;
    }
    for (const d of due) this.active.delete(d);
    if (next !== Infinity) this.arm(next);
    for (const d of due) {
      d.owner.expire();
      d.reject(undefined);
    }
  }
}
