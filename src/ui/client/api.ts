/**
 * The page's calls to its server (ui-server.ts). Every POST carries the CSRF token the page
 * was served with and is sent as JSON from this origin — the two things the server checks.
 */
export interface RunSummary {
  id: string;
  source: string;
  run: string;
  program: string;
  status: "finished" | "failed" | "running" | "waiting" | "resumable";
  agents: string[];
  started_at: number;
  duration_ms: number | null;
  steps: number;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number | null;
}

export interface TimelineStep {
  step: string;
  kind: string;
  name: string;
  status: string;
  code?: string;
  error?: string;
  attempts: number;
  retries: number;
  started_at: number | null;
  duration_ms: number | null;
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
  decision: "approved" | "denied" | null;
  requested_at: number;
}

export interface RunDetail {
  summary: RunSummary;
  steps: TimelineStep[];
  pending: PendingRow[];
  actable: boolean;
}

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

export interface ThreadMessage {
  role: string;
  text: string;
  tool_calls?: { id: string; name: string; args: unknown }[];
  tool_call_id?: string;
  agent?: string;
  time: string;
}

const csrf = (): string => document.querySelector<HTMLMetaElement>('meta[name="luma-csrf"]')?.content ?? "";

async function read<T>(r: Response): Promise<T> {
  const body = (await r.json()) as T & { error?: string; code?: string };
  if (!r.ok) throw new Error(body.code ? `${body.code}: ${body.error}` : String(body.error));
  return body;
}

export const getJson = async <T>(path: string): Promise<T> => read<T>(await fetch(path, { headers: { accept: "application/json" } }));

export const postAct = async (body: { id: string; step: string; digest: string; action: "approve" | "deny" | "answer"; json?: string }): Promise<unknown> =>
  read(await fetch("/api/act", { method: "POST", headers: { "content-type": "application/json", "x-luma-csrf": csrf() }, body: JSON.stringify(body) }));
