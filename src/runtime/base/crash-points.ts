/**
 * Crash points for the reliability tests: `LUMA_TEST_CRASH_AT=<point>[:<n>]` makes the
 * process kill itself with SIGKILL (what `kill -9` sends) the n-th time (default 1st) it
 * reaches `<point>`, so a test can stop a writer between any two steps of a durable write
 * and look at what is left on disk. Unset — as it is everywhere but in those tests — a
 * crash point costs one comparison.
 */
import { killOwnProcess } from "./exit-guard";

export type CrashPoint =
  | "after-lock" // holding the store lock, nothing written yet
  | "after-temp-write" // the temp file written, not yet fsynced
  | "before-rename" // the temp file fsynced, not yet renamed over the store
  | "after-rename" // renamed, the directory not yet fsynced
  | "after-claim" // an in-flight claim file created, the handler not yet run
  | "journal-after-begin" // a step's begin receipt on disk, the step not yet run (durable runs)
  | "journal-after-finish"; // a step's finish receipt on disk, its result not yet back in the program

const spec = process.env.LUMA_TEST_CRASH_AT;
const [armedPoint, nth] = spec ? [spec.split(":")[0], Number(spec.split(":")[1] ?? 1)] : [undefined, 0];
let reached = 0;

export const crashPoint = (point: CrashPoint): void => {
  if (armedPoint !== point) return;
  // Past the exit guard, which refuses handlers' kills of this process (exit-guard.ts).
  if (++reached === nth) killOwnProcess("SIGKILL");
};
