/**
 * While a program runs, tool module code cannot end the process behind the runtime's back.
 *
 * A handler that calls `process.exit()` used to end the run at once with its own code,
 * leaving idempotency claims held and the trace without its last events. The guard replaces,
 * on the real `process` object, every call that ends the process — `exit`, `reallyExit`,
 * `abort`, and `kill` aimed at this process (its pid, or 0 / a negative pid, which include
 * it; signal 0 only probes and passes) — with one that throws `ExitAttempt` instead. The
 * replacement is on the process object itself, so it holds however the module reached it:
 * the real global (no policy, or an ES module under strict), or the host `Function` from
 * inside the strict VM context (whose own `process` is a facade without these).
 *
 * Where the throw lands decides what the user sees:
 * - inside a handler, synchronously or after an `await` — the handler fails, and the tool
 *   pipeline turns it into TOOL_HANDLER_ERROR naming the tool (`tools/steps/handler-errors.ts`);
 * - in code no call awaits (a timer, a stray `.then`) — it is an uncaught error, and the
 *   guard's listener ends the run through `onStray`, naming the tools still in flight
 *   (`run/stray-error.ts`).
 *
 * `process.exitCode` needs no guard: the CLI always exits with an explicit code, which wins.
 * What the guard cannot stop is documented in docs/security.md (The security model): a child process
 * that kills its parent (`Bun.spawnSync(["kill", …])`), FFI, a signal from elsewhere.
 */
export class ExitAttempt extends Error {
  constructor(readonly call: string) {
    super(`${call} was called`);
    this.name = "ExitAttempt";
  }
}

export const isExitAttempt = (e: unknown): e is ExitAttempt => e instanceof ExitAttempt;

type Patched = "exit" | "reallyExit" | "abort" | "kill";

const proc = process as unknown as Record<Patched, (...args: unknown[]) => unknown>;
/** The process's own functions, taken before any guard replaced them. */
const ORIGINAL = { exit: proc.exit, reallyExit: proc.reallyExit, abort: proc.abort, kill: proc.kill };
const restore = () => {
  for (const k of Object.keys(ORIGINAL) as Patched[]) if (ORIGINAL[k] !== undefined) proc[k] = ORIGINAL[k];
};

/**
 * The runtime's own way out while the guard is installed (a second Ctrl-C). It restores the
 * originals first: Bun's `process.exit` itself goes through `process.reallyExit`.
 */
export const exitProcess = (code: number): never => {
  restore();
  return process.exit(code);
};

/** Luma's own signal to itself (the store's crash points for kill -9 tests), past the guard. */
export const killOwnProcess = (signal: NodeJS.Signals): void => {
  ORIGINAL.kill.call(process, process.pid, signal);
};

const describeArg = (v: unknown): string => (v === undefined ? "" : typeof v === "string" ? JSON.stringify(v) : String(v));

/**
 * Installs the guard; returns the function that removes it. `onStray` receives what was
 * thrown outside any awaited call (an ExitAttempt, or any other uncaught error or rejection).
 */
export function installExitGuard(onStray: (thrown: unknown) => void): () => void {
  const refuse = (name: string) => (code?: unknown) => {
    throw new ExitAttempt(`process.${name}(${describeArg(code)})`);
  };
  proc.exit = refuse("exit");
  if (typeof ORIGINAL.reallyExit === "function") proc.reallyExit = refuse("reallyExit");
  proc.abort = refuse("abort");
  proc.kill = (pid: unknown, signal?: unknown) => {
    const own = pid === process.pid || (typeof pid === "number" && pid <= 0);
    if (own && signal !== 0) throw new ExitAttempt(`process.kill(${describeArg(pid)}${signal === undefined ? "" : `, ${describeArg(signal)}`})`);
    return ORIGINAL.kill.call(process, pid, signal);
  };
  const stray = (e: unknown) => onStray(e);
  process.on("uncaughtException", stray);
  process.on("unhandledRejection", stray);
  return () => {
    restore();
    process.off("uncaughtException", stray);
    process.off("unhandledRejection", stray);
  };
}
