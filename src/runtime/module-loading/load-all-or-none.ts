/**
 * Tool modules loaded in children of their own all at once (`"sandbox": "process"`: a cold
 * start is mostly waiting on a new process), by a `luma FILE` run (tools/registry/) and by
 * a built agent (build/) alike: every load settles; when one failed, the children the others
 * started are stopped and the first failure, in request order, is the one thrown.
 */
import type { LoadedModule } from "./loaded-module";

export async function loadAllOrNone(loads: readonly Promise<LoadedModule>[]): Promise<LoadedModule[]> {
  const settled = await Promise.allSettled(loads);
  const started = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) {
    for (const module of started) module.close?.();
    throw failed.reason;
  }
  return started;
}
