/**
 * No stdio MCP server outlives `luma`. Closing a connection ends its server politely (stdin
 * closed, then SIGTERM, then SIGKILL, 2 s apart — the SDK's close), but some exits do not wait
 * for that: a second Ctrl-C/SIGTERM exits at once (stop-on-signal.ts), and so does the CLI
 * after a run whose close was cut short. A server that ignores the end of its stdin and
 * SIGTERM then ran on as an orphan. Every server still running when the process exits is
 * killed, synchronously, from the `exit` event (the only code that runs then).
 *
 * A pid is forgotten when its connection reports the process closed; until then the child
 * is unreaped, so the pid cannot have been reused by another process.
 */
const running = new Set<number>();
let hooked = false;

const killAll = () => {
  for (const pid of running) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  running.clear();
};

/** Kills `pid` at exit unless `forget` was called first (its process closed). */
export function killOnExit(pid: number): { forget(): void } {
  if (!hooked) {
    hooked = true;
    process.on("exit", killAll);
  }
  running.add(pid);
  return { forget: () => void running.delete(pid) };
}
