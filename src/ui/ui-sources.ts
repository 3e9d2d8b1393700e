/**
 * What one `luma ui` shows, decided once at start-up: the journals (`--journal PATH`…) and
 * trace files (`--trace FILE`…) named, else the config's `journal`; and the config's
 * `threads` store.
 * A source's index is part of each run's id (`2:job-17`), so two journals may hold the same
 * run id. Reading is per request (journal-source.ts, trace-source.ts): the page shows what is
 * on disk now.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { startupError } from "../diagnostics/luma-error";
import { loadConfig } from "../config/load-config";
import type { ThreadsConfig } from "../config/config-types";
import { withJournal, type AdminOptions } from "../runtime/journal/journal-admin";
import { journalEvals, journalRun, journalRuns, journalUsage } from "./journal-source";
import { traceRun } from "./trace-source";
import type { EvalView, RunDetail, RunSummary, UsageEntry } from "./ui-types";

export type Source = { kind: "journal"; opts: AdminOptions } | { kind: "trace"; path: string; shown: string };

export interface UiSources {
  sources: Source[];
  threads: { config: ThreadsConfig; projectDir: string } | undefined;
  env: Record<string, string | undefined>;
}

export interface SourceOptions {
  journals: string[];
  traces: string[];
  config?: string;
  cwd: string;
  env: Record<string, string | undefined>;
}

export async function openSources(o: SourceOptions): Promise<UiSources> {
  const loaded = await loadConfig({ configPath: o.config && resolve(o.cwd, o.config), programDir: o.cwd }).catch((e) => {
    if (o.config !== undefined) throw e; // a config named on the command line must be readable; none is fine
    return undefined;
  });
  const sources: Source[] = [];
  for (const j of o.journals) sources.push({ kind: "journal", opts: { journal: j, cwd: o.cwd, env: o.env } });
  for (const t of o.traces) {
    const path = resolve(o.cwd, t);
    if (!existsSync(path)) throw startupError(`Trace file ${t} does not exist: luma ui shows trace files written by luma … --trace FILE.`, { catalogCode: "E1504" });
    sources.push({ kind: "trace", path, shown: t });
  }
  // Sources named on the command line are what is shown; without any, the config's journal.
  if (sources.length === 0 && loaded?.config.journal !== undefined) sources.push({ kind: "journal", opts: { config: o.config, cwd: o.cwd, env: o.env } });
  if (sources.length === 0) {
    throw startupError("luma ui has nothing to show: pass --journal PATH or --trace FILE, or set \"journal\" in luma.config.json.", { catalogCode: "E1503" });
  }
  // Each journal is opened once now, so a missing file, a damaged journal or a missing key is a start-up error, not a page of errors.
  for (const s of sources) if (s.kind === "journal") await withJournal(s.opts, async () => undefined);
  const threads = loaded?.config.threads === undefined ? undefined : { config: loaded.config.threads, projectDir: loaded.projectDir };
  return { sources, threads, env: o.env };
}

/** Every run of every source, newest first. */
export async function allRuns(u: UiSources): Promise<RunSummary[]> {
  const lists = await Promise.all(u.sources.map(async (s, i) => (s.kind === "journal" ? journalRuns(i, s.opts) : [traceRun(i, s.path, s.shown).summary])));
  return lists.flat().sort((a, b) => b.started_at - a.started_at);
}

/** Every eval recorded in the journals, newest first (trace files hold none). */
export async function allEvals(u: UiSources): Promise<EvalView[]> {
  const lists = await Promise.all(u.sources.map((s, i) => (s.kind === "journal" ? journalEvals(i, s.opts) : [])));
  return lists.flat().sort((a, b) => b.at - a.at || a.id.localeCompare(b.id, "en", { numeric: true }));
}

/** One run by its page id (`<source>:<run>`), or undefined. */
export async function oneRun(u: UiSources, id: string): Promise<RunDetail | undefined> {
  const colon = id.indexOf(":");
  const s = u.sources[Number(id.slice(0, colon))];
  const run = id.slice(colon + 1);
  if (s === undefined || colon < 0) return undefined;
  if (s.kind === "trace") return traceRun(Number(id.slice(0, colon)), s.path, s.shown);
  const r = await journalRun(Number(id.slice(0, colon)), s.opts, run);
  return r === undefined ? undefined : { ...r, actable: true };
}

/** The journal source of a page id, for a decision. */
export const journalOf = (u: UiSources, id: string): { opts: AdminOptions; run: string } | undefined => {
  const colon = id.indexOf(":");
  const s = u.sources[Number(id.slice(0, colon))];
  return colon < 0 || s === undefined || s.kind !== "journal" ? undefined : { opts: s.opts, run: id.slice(colon + 1) };
};

/** The usage charts' points: model requests and tool calls of every journaled run, and each trace's requests. */
export async function allUsage(u: UiSources): Promise<UsageEntry[]> {
  await allRuns(u);
  const fromTraces = u.sources.flatMap((s, i) =>
    s.kind !== "trace"
      ? []
      : traceRun(i, s.path, s.shown).steps.flatMap((st): UsageEntry[] =>
          st.kind === "model" || st.kind === "tool"
            ? [{
                at: st.started_at ?? 0,
                model: st.kind === "model" ? st.name : null,
                agent: typeof st.detail?.agent === "string" ? st.detail.agent : "(top level)",
                tool: st.kind === "tool" ? st.name : null,
                tokens_in: Number(st.detail?.tokens_in ?? 0),
                tokens_out: Number(st.detail?.tokens_out ?? 0),
                cost_usd: 0,
                duration_ms: st.duration_ms ?? 0,
              }]
            : [],
        ),
  );
  return [...journalUsage(), ...fromTraces];
}
