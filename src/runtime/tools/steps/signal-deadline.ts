/**
 * The time a handler has left, read from the AbortSignal it was handed. A handler that
 * waits on something outside the process (a database lock) can then bound its own wait by
 * the call's deadline and report what it waited for — "database is locked" — before the
 * deadline turns the call into a bare TOOL_TIMEOUT.
 *
 * Kept beside the signal rather than passed as an argument, so that the handler contract
 * `(input, signal, needs)` does not change. Step 10 attaches it only for plans that ask
 * (queries and commands, `tool-plan.ts`), so a tool call pays nothing for it.
 */
const left = new WeakMap<AbortSignal, () => number>();

/** Step 10: `remaining()` is the deadline minus the pipeline clock's now, in ms. */
export function attachDeadline(signal: AbortSignal, remaining: () => number): void {
  left.set(signal, remaining);
}

/** Milliseconds until the call's deadline (≤ 0 once it passed), or undefined without one. */
export function timeLeft(signal: AbortSignal): number | undefined {
  return left.get(signal)?.();
}
