/**
 * What `luma ui`'s server answers its page (JSON over `/api/…`): one shape for a run whether
 * it was read from a journal or from a trace file. The page (client/) reads the same names.
 */

/** finished · failed · running · waiting (a call waits for a person) · resumable (decided, not yet run again). */
export type UiStatus = "finished" | "failed" | "running" | "waiting" | "resumable";

export interface RunSummary {
  /** `<source index>:<run id>`: unique across the journals and traces shown. */
  id: string;
  /** The journal or trace file, as its messages name it. */
  source: string;
  run: string;
  program: string;
  status: UiStatus;
  agents: string[];
  /** Epoch milliseconds. */
  started_at: number;
  duration_ms: number | null;
  steps: number;
  tokens_in: number;
  tokens_out: number;
  /** Null: no model of the run declares a price (unknown, not free). */
  cost_usd: number | null;
}

export interface TimelineStep {
  step: string;
  kind: string;
  name: string;
  /** ok · error · begun (running, or the process died in it) */
  status: string;
  code?: string;
  error?: string;
  attempts: number;
  retries: number;
  started_at: number | null;
  duration_ms: number | null;
  /** What it was asked and how the pipeline answered (input, messages, cache_hit, idempotent_replay, journal_replay…). */
  detail?: Record<string, unknown>;
  output?: unknown;
}

export interface PendingRow {
  step: string;
  tool: string;
  digest: string;
  kind: "approval" | "answer";
  args: string;
  schema?: string;
  json_schema?: unknown;
  decision: "approved" | "denied" | null;
  requested_at: number;
}

export interface RunDetail {
  summary: RunSummary;
  steps: TimelineStep[];
  pending: PendingRow[];
  /** Whether the page may decide: a journal's run (a trace is read-only). */
  actable: boolean;
}

/** One point of the usage charts: a model request (tokens, cost) or a tool call (count, time). */
export interface UsageEntry {
  at: number;
  model: string | null;
  agent: string;
  tool: string | null;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
  duration_ms: number;
}

/** A stored thread's message as the Threads view shows it (runtime/stores/threads/thread-message.ts, without its `exchange`). */
export interface ThreadMessageView {
  role: "user" | "assistant" | "tool";
  text: string;
  tool_calls?: { id: string; name: string; args: unknown }[];
  tool_call_id?: string;
  agent?: string;
  time: string;
}

/**
 * One eval of a `luma eval` as the Evals view shows it (runtime/evals/eval-record.ts, read
 * from a journal): its scores' means and failing cases, and each case with its run's page id.
 */
export interface EvalView {
  /** `<invocation>/<n>`. */
  id: string;
  /** The `luma eval` it was part of: the evals (and `--model` variants) of one invocation show side by side. */
  invocation: string;
  at: number;
  /** The journal it was read from. */
  source: string;
  name: string;
  file: string;
  /** `AGENT=MODEL` for a `--model` run; null as written. */
  variant: string | null;
  scores: Record<string, { mean: number; failing: { line: number; id?: string }[] }>;
  cases: {
    line: number;
    id: string | null;
    scores: Record<string, boolean | number>;
    error: string | null;
    duration_ms: number;
    tokens_in: number | null;
    tokens_out: number | null;
    cost_usd: number | null;
    /** The case's run as the page names it (`<source>:<run id>`), null when it has none. */
    run: string | null;
  }[];
}
