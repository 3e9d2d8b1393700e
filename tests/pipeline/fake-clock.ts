/**
 * A clock the tests drive by hand: `sleep` records each backoff wait and moves time on at
 * once; `advance` moves time and fires the timers that came due (the shared deadline timer).
 */
import type { Clock, ClockTimer } from "../../src/runtime/base/clock";

interface PendingTimer {
  at: number;
  fire: () => void;
  live: boolean;
}

export class FakeClock implements Clock {
  time = 1_000_000;
  readonly sleeps: number[] = [];
  private timers: PendingTimer[] = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.advance(ms);
    return Promise.resolve();
  }

  setTimer(ms: number, fire: () => void): ClockTimer {
    const timer: PendingTimer = { at: this.time + Math.max(0, ms), fire, live: true };
    this.timers.push(timer);
    return { cancel: () => void (timer.live = false), ref() {}, unref() {} };
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      due.live = false;
      this.time = Math.max(this.time, due.at);
      due.fire();
    }
    this.timers = this.timers.filter((t) => t.live);
    this.time = until;
  }
}
