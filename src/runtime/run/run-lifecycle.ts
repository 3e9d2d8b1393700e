/**
 * One run's ending, owned in one place. Something outside the program's own flow may end
 * the run — a tool module's stray `process.exit()` or uncaught error (`base/exit-guard.ts`), and
 * later a signal. `stop(reason)` aborts every tool call in flight with a RunEndingError
 * (their handlers' AbortSignals fire, step 12 releases their claims and writes their trace
 * events), makes every later call fail with it, and ends the run even when the program is
 * waiting on something that is not a tool call (a model's answer): `run(work)` then waits a
 * moment for the aborted calls to unwind, and rejects with the reason. The first reason wins.
 */
import type { LumaError } from "../../diagnostics/luma-error";
import type { RunToolInvoker } from "../tools/pipeline";
import { RunEndingError } from "../base/run-ending-error";
import { settleWithin } from "./work-in-flight";

/**
 * A stopped call's handler gets this long to settle after its signal fired (then its claim
 * is released anyway); the run waits a little longer for the calls to unwind, then ends.
 */
const SETTLE_MS = 1000;
const UNWIND_GRACE_MS = 1500;

export interface RunLifecycle {
  /** The invoker whose calls `stop` aborts (the guard is installed before it exists). */
  attach(tools: RunToolInvoker): void;
  /** Names of the tools in flight now. */
  inFlight(): string[];
  stop(reason: RunEndingError): void;
  /** The reason `stop` was given, once it was: a busy loop that yields checks it. */
  stopped(): RunEndingError | undefined;
  /** Resolves with the reason once `stop` was called: a server (`luma mcp`) waits on it. */
  untilStopped(): Promise<RunEndingError>;
  /** Settles like `work`, unless the run was stopped: then it rejects with the reason. */
  run<T>(work: Promise<T>): Promise<T>;
}

/** A runtime error as the end of the run (no `catch` can hold it), with `exitCode`. */
export const endingWith = (e: LumaError, exitCode: number, quiet = false): RunEndingError =>
  new RunEndingError({ code: e.code, message: e.message, details: e.details }, exitCode, quiet);

export function createRunLifecycle(): RunLifecycle {
  let tools: RunToolInvoker | undefined;
  let reason: RunEndingError | undefined;
  let wake!: () => void;
  const stopped = new Promise<void>((resolve) => (wake = resolve));
  return {
    attach(t) {
      tools = t;
      if (reason !== undefined) t.stopAll(reason, SETTLE_MS);
    },
    inFlight: () => tools?.inFlight() ?? [],
    stopped: () => reason,
    untilStopped: () => stopped.then(() => reason!),
    stop(r) {
      if (reason !== undefined) return;
      reason = r;
      tools?.stopAll(r, SETTLE_MS);
      wake();
    },
    async run<T>(work: Promise<T>): Promise<T> {
      const STOPPED = Symbol();
      const first = await Promise.race([work.then((value) => ({ value }), (error: unknown) => ({ error })), stopped.then(() => STOPPED)]);
      if (first === STOPPED) {
        await settleWithin(work, UNWIND_GRACE_MS);
      }
      if (reason !== undefined) throw reason;
      if ("error" in (first as object)) throw (first as { error: unknown }).error;
      return (first as { value: T }).value;
    },
  };
}
