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
