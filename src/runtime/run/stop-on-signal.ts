/**
 * Ctrl-C and SIGTERM end a run gracefully. The first SIGINT or SIGTERM stops the run through
 * its lifecycle: every tool call in flight has its AbortSignal aborted, its idempotency
 * claim released once its handler settled (so a rerun does not wait for a lease), its trace
 * event written; then the CLI exits 130 (SIGINT) or 143 (SIGTERM), the statuses a shell shows
 * for a process those signals killed. A second signal exits at once with the same status —
 * the way out of a handler that ignores its signal.
 *
 * Signals reach JavaScript through the event loop: a run busy in pure computation (no tool
 * call or model answer awaited) sees the signal only when it next waits.
 */
import { runtimeError } from "../../diagnostics/luma-error";
import { endingWith, type RunLifecycle } from "./run-lifecycle";

const SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;
type Handled = keyof typeof SIGNALS;

/** Installs the listeners; returns the function that removes them. `exitNow` is the real exit. */
export function stopOnSignal(lifecycle: RunLifecycle, exitNow: (code: number) => never): () => void {
  let received = false;
  const listeners = (Object.keys(SIGNALS) as Handled[]).map((signal) => {
    const listener = () => {
      if (received) exitNow(SIGNALS[signal]);
      received = true;
      lifecycle.stop(endingWith(runtimeError("RUNTIME_ERROR", `Interrupted by ${signal}.`), SIGNALS[signal]));
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}
