/**
 * `luma ui` reading a trace file (`--trace FILE`, JSON Lines, docs/telemetry.md) as one run:
 * its events are the timeline (`tool.call`, `query.call`, `command.call`, `provider.request`,
 * `ask`), `run.usage` says it ended. A trace holds no inputs or messages (by design: nothing
 * of the program's data reaches it), so its steps show names, outcomes, codes, timing and
 * the pipeline's flags. The file is read afresh on each request: a run tracing to it shows
 * its steps as they are written. A line that is not JSON (one being written) is skipped.
 */
import { readFileSync, statSync } from "node:fs";
import type { RunDetail, RunSummary, TimelineStep } from "./ui-types";

type Event = Record<string, unknown>;

const readEvents = (path: string): Event[] => {
  const out: Event[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const e = JSON.parse(line) as Event;
      if (typeof e === "object" && e !== null && typeof e.event === "string") out.push(e);
    } catch {
      // the last line of a run still writing it
    }
  }
  return out;
};

const STEP_EVENTS: Record<string, { kind: string; name: string }> = {
  "tool.call": { kind: "tool", name: "tool" },
  "query.call": { kind: "query", name: "query" },
  "command.call": { kind: "command", name: "command" },
  "provider.request": { kind: "model", name: "model" },
  ask: { kind: "ask", name: "agent" },
};

const FLAGS = ["agent", "mode", "cache_hit", "single_flight", "idempotent_replay", "journal_replay", "turn", "attempt", "tokens_in", "tokens_out", "model_name", "rows"];

const time = (e: Event): number => (typeof e.ts === "string" ? Date.parse(e.ts) : 0);

const stepOf = (e: Event, i: number): TimelineStep => {
  const shape = STEP_EVENTS[e.event as string];
  const duration = typeof e.duration_ms === "number" ? e.duration_ms : null;
  const detail: Record<string, unknown> = {};
  for (const k of FLAGS) if (e[k] !== undefined && e[k] !== null) detail[k] = e[k];
  const attempts = typeof e.attempts === "number" ? e.attempts : 1;
  return {
    step: typeof e.step === "string" ? e.step : `#${i + 1}`,
    kind: shape.kind,
    name: String(e[shape.name] ?? e.event),
    status: e.outcome === "error" ? "error" : "ok",
    ...(typeof e.code === "string" ? { code: e.code } : {}),
    attempts,
    retries: Math.max(0, attempts - 1),
    started_at: duration === null ? time(e) : time(e) - duration,
    duration_ms: duration,
    detail,
  };
};

interface UsageTotals {
  total?: { tokens_in?: number; tokens_out?: number; input?: number; output?: number; cost_usd?: number | null };
}

/** The trace file as one run: `id` is `<source>:<file>`. */
export const traceRun = (source: number, path: string, shown: string): RunDetail => {
  const events = readEvents(path);
  const steps = events.filter((e) => STEP_EVENTS[e.event as string] !== undefined).map(stepOf);
  const usage = events.find((e) => e.event === "run.usage") as (Event & UsageTotals) | undefined;
  const agents = new Set<string>();
  let tokensIn = 0;
  let tokensOut = 0;
  for (const e of events) {
    if (typeof e.agent === "string") agents.add(e.agent);
    if (e.event === "provider.request") {
      tokensIn += typeof e.tokens_in === "number" ? e.tokens_in : 0;
      tokensOut += typeof e.tokens_out === "number" ? e.tokens_out : 0;
    }
  }
  const started = events.length > 0 ? Math.min(...steps.map((s) => s.started_at ?? time(events[0])), time(events[0])) : statSync(path).mtimeMs;
  const ended = usage === undefined ? null : time(usage);
  const failed = steps.some((s) => s.kind === "ask" && s.status === "error");
  const summary: RunSummary = {
    id: `${source}:${shown}`,
    source: shown,
    run: shown,
    program: shown,
    status: ended === null ? "running" : failed ? "failed" : "finished",
    agents: [...agents].sort(),
    started_at: started,
    duration_ms: ended === null ? null : ended - started,
    steps: steps.length,
    tokens_in: tokensIn,
    tokens_out: tokensOut,
    cost_usd: typeof usage?.total?.cost_usd === "number" ? usage.total.cost_usd : null,
  };
  return { summary, steps, pending: [], actable: false };
};
