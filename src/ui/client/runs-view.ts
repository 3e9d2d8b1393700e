/**
 * Runs: every run of the journals and trace files, newest first — status, agents, start,
 * duration, steps, tokens, cost — filtered by status and searched by run id, program, agent
 * or source. The list is virtual (virtual-list.ts) and refreshed every 2 s, so a run that
 * starts, waits or ends shows up without reloading.
 */
import { getJson, type RunSummary } from "./api";
import { fmtMs, fmtTime, fmtUsd, h } from "./dom";
import { virtualList } from "./virtual-list";

const STATUSES = ["all", "finished", "failed", "running", "waiting", "resumable"] as const;

export function runsView(root: HTMLElement, open: (id: string) => void): () => void {
  let all: RunSummary[] = [];
  let status: string = "all";
  let query = "";
  const count = h("span.count");
  const list = virtualList<RunSummary>(32, (r) =>
    h("a.row.run-row", { href: `#/run/${encodeURIComponent(r.id)}`, "data-run": r.run, "data-status": r.status, onclick: (e: Event) => (e.preventDefault(), open(r.id)) },
      h("span.c-status", {}, h(`span.badge.s-${r.status}` as "span", {}, r.status)),
      h("span.c-run", { title: r.source }, r.run),
      h("span.c-agents", {}, r.agents.join(", ") || "–"),
      h("span.c-start", {}, fmtTime(r.started_at)),
      h("span.c-dur", {}, fmtMs(r.duration_ms)),
      h("span.c-steps", {}, r.steps),
      h("span.c-tok", {}, `${r.tokens_in} / ${r.tokens_out}`),
      h("span.c-cost", {}, fmtUsd(r.cost_usd)),
    ),
  );
  const apply = () => {
    const q = query.toLowerCase();
    const shown = all.filter((r) => (status === "all" || r.status === status) && (q === "" || [r.run, r.program, r.source, ...r.agents].some((t) => t.toLowerCase().includes(q))));
    count.textContent = `${shown.length} of ${all.length} runs`;
    list.update(shown);
  };
  const search = h("input.search", { type: "search", placeholder: "Search run, program, agent…", "aria-label": "Search runs" });
  search.addEventListener("input", () => ((query = search.value), apply()));
  const filter = h("select.filter", { "aria-label": "Status" }, ...STATUSES.map((s) => h("option", { value: s }, s)));
  filter.addEventListener("change", () => ((status = filter.value), apply()));
  const head = h("div.row.head", {}, ...["status", "run", "agents", "started", "duration", "steps", "tokens in / out", "cost"].map((t, i) => h("span", { class: ["c-status", "c-run", "c-agents", "c-start", "c-dur", "c-steps", "c-tok", "c-cost"][i] }, t)));
  root.replaceChildren(h("section.runs", {}, h("div.toolbar", {}, search, filter, count), head, list.el));
  const load = async () => {
    all = await getJson<RunSummary[]>("/api/runs");
    apply();
  };
  void load().then(() => document.body.setAttribute("data-runs-loaded", String(all.length)));
  const timer = setInterval(() => void load(), 2000);
  return () => clearInterval(timer);
}
