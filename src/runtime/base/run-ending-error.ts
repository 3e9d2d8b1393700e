/**
 * An error that ends the run: the program's stdout was closed or cannot be written, a tool
 * handler tried to end the process, a signal asked the run to stop. It is a LumaError (so
 * every layer that reports errors reports it), but no layer may recover from it: a Luma
 * `try`/`catch` rethrows it, the circuit breaker does not rewrite it, the native tool loop
 * does not hand it to the model (it is not retryable). The CLI exits with `exitCode`, and
 * prints nothing when `quiet` (a closed pipe ends a program the way it ends `yes`).
 */
import { LumaError, type LumaErrorInit } from "../../diagnostics/luma-error";

export class RunEndingError extends LumaError {
  constructor(
    init: LumaErrorInit,
    readonly exitCode: number,
    readonly quiet = false,
  ) {
    super({ ...init, retryable: false, phase: "runtime" });
  }
}

export const isRunEnding = (e: unknown): e is RunEndingError => e instanceof RunEndingError;

/**
 * `exit(code)` in a program: the run ends with that status, quietly, through the same
 * lifecycle as any other ending (the trace and the journal close, claims are settled).
 * `exit(0)` is a success: the run's end records no error.
 */
export class ProgramExit extends RunEndingError {
  constructor(exitCode: number) {
    super({ code: "RUNTIME_ERROR", message: `The program called exit(${exitCode}).` }, exitCode, true);
  }
}

export const isProgramExit = (e: unknown): e is ProgramExit => e instanceof ProgramExit;
