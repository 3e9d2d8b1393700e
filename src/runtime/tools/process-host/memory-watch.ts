/**
 * `max_memory_mb` under `sandbox: "process"`: the resident memory of a module's child —
 * every process of its sandbox, the runtime included — sampled from /proc every
 * MEMORY_SAMPLE_MS; over the limit, the child is killed (TOOL_SANDBOX_FAILED for the call in
 * flight, a fresh child for the next). A sample, not a hard ceiling: an allocation spike
 * between two samples is caught at the next one. RLIMIT_AS/RLIMIT_DATA cannot serve: the
 * runtime reserves ~300 MB of address space before it runs a line.
 */
import { readFileSync } from "node:fs";

export const MEMORY_SAMPLE_MS = 50;

/** The pids below `pid` (children, grandchildren…), read from /proc. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const at = queue.shift()!;
    let children = "";
    try {
      children = readFileSync(`/proc/${at}/task/${at}/children`, "utf8");
    } catch {
      continue;
    }
    for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

const residentKb = (pid: number): number => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
};

/** The resident memory of `pid` and everything below it, in MiB. */
export const residentMiB = (pid: number): number => [pid, ...descendants(pid)].reduce((sum, p) => sum + residentKb(p), 0) / 1024;

/** Samples `pid`'s tree until stopped; calls `over(mib)` once when it passes `limitMb`. */
export function watchMemory(pid: number, limitMb: number, over: (mib: number) => void): () => void {
  const timer = setInterval(() => {
    const mib = residentMiB(pid);
    if (mib > limitMb) {
      clearInterval(timer);
      over(Math.round(mib));
    }
  }, MEMORY_SAMPLE_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}
