/**
 * Work that must finish before the process exits — today the span exporter's last send.
 * A normal end and a failed run flush through start-program's `finally`; a path that ends
 * the process another way (a signal handler in the CLI) awaits `flushBeforeExit()` first.
 * Each flush is bounded by its own timeout (the OTLP exporter's), so exiting never hangs.
 *
 * @example
 *   process.on("SIGINT", async () => { await flushBeforeExit(); process.exit(130); });
 */
const hooks = new Set<() => Promise<void>>();

/** Registers `flush`; the returned function unregisters it (a run that ended normally). */
export function onExitFlush(flush: () => Promise<void>): () => void {
  hooks.add(flush);
  return () => void hooks.delete(flush);
}

/** Runs every registered flush; never rejects. */
export async function flushBeforeExit(): Promise<void> {
  await Promise.all([...hooks].map((h) => h().catch(() => undefined)));
}
