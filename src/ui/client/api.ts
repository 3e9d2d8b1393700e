/**
 * The page's calls to its server (ui-server.ts). Every POST carries the CSRF token the page
 * was served with and is sent as JSON from this origin — the two things the server checks.
 */
// The server's answers, typed by the server's own declarations (type-only: erased from the bundle).
import type { ThreadMessageView } from "../ui-types";
export type { EvalView, PendingRow, RunDetail, RunSummary, TimelineStep, UsageEntry } from "../ui-types";
export type ThreadMessage = ThreadMessageView;
export interface ListedThread {
  id: string;
  version: number;
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
