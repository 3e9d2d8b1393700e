/**
 * What ends a run when the exit guard (base/exit-guard.ts) catches a throw that no call
 * awaits: an `ExitAttempt` from a timer or a stray `.then`, or any other uncaught error or
 * rejection. Apart from the guard because the guard is base — the pipeline's handler errors
 * and the stores' crash points use it — while this sentence belongs to the run's ending.
 */
import type { RunEndingError } from "../base/run-ending-error";
import { isExitAttempt } from "../base/exit-guard";
import { toolErrors } from "../tools/steps/tool-errors";
import { endingWith } from "./run-lifecycle";

/** What a stray throw (outside any awaited call) ends the run with: exit 1, naming the tools in flight. */
export const strayError = (thrown: unknown, inFlight: readonly string[]): RunEndingError =>
  endingWith(
    isExitAttempt(thrown)
      ? toolErrors.strayExit(thrown.call, inFlight)
      : toolErrors.strayThrow(thrown instanceof Error ? thrown.message : String(thrown), inFlight),
    1,
  );
