/**
 * While a program runs, `console.log`, `console.info` and `console.debug` — what a tool
 * handler reaches for to print a debug line — write to stderr, not stdout. A program's
 * stdout is its output: `luma report.luma | jq .` must not see a handler's chatter.
 *
 * The lines go through the CLI's stderr writer (`write-fully.ts`), so they keep their order
 * with Luma's own warnings and `--trace -` lines and are never cut short. The replacement
 * is on the host `console`, which is also the `console` the strict VM context is given.
 * `console.warn`/`console.error` already write to stderr; `process.stdout.write` is a
 * handler's explicit choice and is left alone.
 */
import { format } from "node:util";

const REDIRECTED = ["log", "info", "debug"] as const;

/** Installs the redirect; returns the function that restores the console. */
export function redirectConsoleToStderr(stderr: (line: string) => void): () => void {
  const saved = REDIRECTED.map((name) => console[name]);
  const toStderr = (...args: unknown[]) => stderr(format(...args));
  for (const name of REDIRECTED) console[name] = toStderr;
  return () => REDIRECTED.forEach((name, i) => (console[name] = saved[i]));
}
