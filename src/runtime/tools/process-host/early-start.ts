/**
 * Issue #30: a `"process"` module's child starts while the program is still parsed and
 * checked, so the child runtime's own start-up (most of a cold start) overlaps luma's.
 *
 * The config and the module list are known before the program is: `startEarly` (index.ts,
 * before parsing) works out each module's sandbox command line exactly as its load will
 * (load-process-module.ts `childLaunch`) and spawns it. The early child only starts: it is
 * sent nothing, so not a line of the module runs before the program was checked and the
 * module passed integrity and strict's checks in their usual order. When the load comes,
 * it claims the child whose command line and environment are exactly its own; anything
 * else (a config that changed, a module the check would refuse) starts fresh as before.
 *
 * Every unclaimed child is stopped once the modules are loaded, and on any start-up
 * failure (a check error, a refused module): `stopUnclaimed`. A child luma forgets still
 * ends: its stdin closes with luma, and bwrap's --die-with-parent kills it.
 */
import type { Subprocess } from "bun";

export type EarlyChild = Subprocess<"pipe", "pipe", "inherit">;

const idle = new Map<string, EarlyChild>();

const keyOf = (argv: string[], env: Record<string, string>): string =>
  JSON.stringify([argv, Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);

/** Spawns a child that waits, idle, for its load (its stderr is luma's, as every child's). */
export function spawnChild(argv: string[], env: Record<string, string>): EarlyChild {
  return Bun.spawn(argv, { env, stdin: "pipe", stdout: "pipe", stderr: "inherit" });
}

export function startEarlyChild(argv: string[], env: Record<string, string>): void {
  const key = keyOf(argv, env);
  if (idle.has(key)) return;
  idle.set(key, spawnChild(argv, env));
}

/** The early child started with exactly this command line and environment, still alive; it is the caller's from now on. */
export function claimEarlyChild(argv: string[], env: Record<string, string>): EarlyChild | undefined {
  const key = keyOf(argv, env);
  const child = idle.get(key);
  idle.delete(key);
  if (child && child.exitCode === null && child.signalCode === null) return child;
  return undefined;
}

/**
 * Stops every early child nobody claimed. Its channel is closed: the idle child exits on
 * its own, and bwrap with it. Not a signal first: a SIGKILL landing while bwrap is still
 * setting up its namespaces can leave its intermediate process behind; the kill is only the
 * fallback for a child that did not leave within a second (the timer never holds luma up).
 */
export function stopUnclaimed(): void {
  for (const child of idle.values()) {
    try {
      child.stdin.end();
    } catch {
      // already gone
    }
    setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"), 1000).unref();
  }
  idle.clear();
}

/** The pids of the early children waiting (tests). */
export const unclaimedPids = (): number[] => [...idle.values()].map((child) => child.pid);
