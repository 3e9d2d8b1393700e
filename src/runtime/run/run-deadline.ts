/**
 * A deadline on one run (`luma test` gives each test one, `--timeout MS`): when it passes,
 * the run is stopped through its lifecycle like a signal stops it — tool calls in flight are
 * aborted, a `while` ends at its next yield, and no `catch` can hold the reason.
 *
 * Two things must notice the deadline, because neither alone sees every way a run can hang:
 * - a timer, for a run that waits (a slow tool, a busy `while`, which yields to the event
 *   loop every WHILE_YIELD_EVERY turns);
 * - the clock, read by `stopped()`, for a run that never yields to the event loop at all —
 *   deep or exponential recursion settles one promise after another without a macrotask in
 *   between, so no timer fires; the interpreter asks `stopped()` every so many calls.
 */
import { endingWith, type RunLifecycle } from "./run-lifecycle";
import type { RunEndingError } from "../base/run-ending-error";
import type { LumaError } from "../../diagnostics/luma-error";

/** Timers past 2^31-1 ms fire at once; a longer deadline waits "about 24 days" instead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface RunDeadline {
  /** From the start of the run. */
  ms: number;
  /** The error the run ends with (a RUNTIME_ERROR naming what passed its deadline). */
  error: () => LumaError;
}

export interface ArmedDeadline {
  /** The lifecycle's `stopped`, which also stops the run once the deadline has passed. */
  stopped(): RunEndingError | undefined;
  /** Clears the timer (the run ended first). */
  disarm(): void;
}

export function armDeadline(lifecycle: RunLifecycle, deadline: RunDeadline): ArmedDeadline {
  const at = performance.now() + deadline.ms;
  // Exit code 1, as for any runtime error; `luma test` reports it as the test's failure.
  const stop = () => lifecycle.stop(endingWith(deadline.error(), 1));
  const timer = setTimeout(stop, Math.min(deadline.ms, MAX_TIMER_MS));
  return {
    stopped() {
      if (lifecycle.stopped() === undefined && performance.now() >= at) stop();
      return lifecycle.stopped();
    },
    disarm: () => clearTimeout(timer),
  };
}
