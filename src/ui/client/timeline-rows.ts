/**
 * A run's steps as a tree: its step ids are paths (`main/Flow.run#2/1.req2.call1`, see
 * journal/step-scope.ts), so each call scope — an agent's method, a function, a `parallel`
 * block and each of its branches — becomes a header row, with its steps under it, in the
 * program's order (each segment's ordinal, then an ask's request and call numbers). Steps
 * that ran at once (parallel branches, a model's native calls) are shown by where they ran,
 * not interleaved by when they finished. `now()` readings (`now#4`) stay flat, at the end.
 */
import type { TimelineStep } from "./api";

export type TimelineRow = { kind: "scope"; label: string; depth: number; path: string } | { kind: "step"; step: TimelineStep; depth: number };

/** `twice#1` → [1]; `1.req2.call1` → [1, 2, 1]; `now#4` → [4]. */
const segmentKey = (seg: string): number[] => (seg.match(/\d+/g) ?? []).map(Number);

const compare = (a: string, b: string): number => {
  const x = a.split("/");
  const y = b.split("/");
  if (x[0] !== y[0]) return x[0] === "main" ? -1 : y[0] === "main" ? 1 : x[0] < y[0] ? -1 : 1;
  for (let i = 1; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    const kx = segmentKey(x[i]);
    const ky = segmentKey(y[i]);
    for (let j = 0; j < Math.max(kx.length, ky.length); j++) {
      const d = (kx[j] ?? -1) - (ky[j] ?? -1);
      if (d !== 0) return d;
    }
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return 0;
};

const calls = (last: string): number => last.match(/\.(req|call)\d+/g)?.length ?? 0;

export function timelineRows(steps: readonly TimelineStep[]): TimelineRow[] {
  const rows: TimelineRow[] = [];
  const opened = new Set<string>();
  for (const step of [...steps].sort((a, b) => compare(a.step, b.step))) {
    const segs = step.step.split("/");
    for (let i = 1; i < segs.length - 1; i++) {
      const path = segs.slice(0, i + 1).join("/");
      if (opened.has(path)) continue;
      opened.add(path);
      rows.push({ kind: "scope", label: segs[i], depth: i - 1, path });
    }
    rows.push({ kind: "step", step, depth: Math.max(0, segs.length - 2) + calls(segs[segs.length - 1]) });
  }
  return rows;
}
