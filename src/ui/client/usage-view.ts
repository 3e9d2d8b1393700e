/**
 * Usage: tokens and cost per model, tokens per agent, and calls per tool, over time — one
 * stacked-bar chart each (SVG drawn here: no chart library), 30 time buckets across the
 * runs' span, with the totals per group beside it.
 */
import { getJson, type UsageEntry } from "./api";
import { fmtUsd, h, svg } from "./dom";

const COLORS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
const BUCKETS = 30;

interface Dim {
  title: string;
  key: (e: UsageEntry) => string | null;
  value: (e: UsageEntry) => number;
  unit: (v: number) => string;
}

const DIMS: Dim[] = [
  { title: "Tokens per model", key: (e) => e.model, value: (e) => e.tokens_in + e.tokens_out, unit: (v) => `${v} tokens` },
  { title: "Cost per model", key: (e) => e.model, value: (e) => e.cost_usd, unit: fmtUsd },
  { title: "Tokens per agent", key: (e) => (e.model === null ? null : e.agent), value: (e) => e.tokens_in + e.tokens_out, unit: (v) => `${v} tokens` },
  { title: "Calls per tool", key: (e) => e.tool, value: () => 1, unit: (v) => `${v} calls` },
];

function chart(d: Dim, entries: UsageEntry[]): HTMLElement {
  const mine = entries.filter((e) => d.key(e) !== null);
  const groups = [...new Set(mine.map((e) => d.key(e)!))].sort();
  if (mine.length === 0) return h("div.chart", {}, h("h3", {}, d.title), h("p.meta", {}, "nothing recorded"));
  const t0 = Math.min(...mine.map((e) => e.at));
  const t1 = Math.max(...mine.map((e) => e.at)) + 1;
  const width = (t1 - t0) / BUCKETS;
  const cells = Array.from({ length: BUCKETS }, () => new Map<string, number>());
  const totals = new Map<string, number>();
  for (const e of mine) {
    const b = Math.min(BUCKETS - 1, Math.floor((e.at - t0) / width));
    const k = d.key(e)!;
    cells[b].set(k, (cells[b].get(k) ?? 0) + d.value(e));
    totals.set(k, (totals.get(k) ?? 0) + d.value(e));
  }
  const max = Math.max(...cells.map((c) => [...c.values()].reduce((a, b) => a + b, 0)), 1e-12);
  const W = 600, H = 160, bw = W / BUCKETS;
  const bars: SVGElement[] = [];
  cells.forEach((c, i) => {
    let y = H;
    groups.forEach((g, gi) => {
      const v = c.get(g) ?? 0;
      if (v === 0) return;
      const hgt = (v / max) * (H - 10);
      y -= hgt;
      bars.push(svg("rect", { x: i * bw + 1, y, width: bw - 2, height: hgt, fill: COLORS[gi % COLORS.length] }, svg("title", {}, `${g}: ${d.unit(v)} (${new Date(t0 + i * width).toISOString().slice(0, 16)})`)));
    });
  });
  return h("div.chart", { "data-chart": d.title },
    h("h3", {}, d.title),
    h("div.chart-body", {},
      (() => {
        const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img", "aria-label": d.title }, svg("line", { x1: 0, y1: H, x2: W, y2: H, stroke: "#999" }), ...bars);
        return s as unknown as HTMLElement;
      })(),
      h("ul.legend", {}, ...groups.map((g, gi) => h("li", {}, h("span.swatch", { style: `background:${COLORS[gi % COLORS.length]}` }), `${g}: ${d.unit(totals.get(g) ?? 0)}`))),
    ),
    h("p.meta", {}, `${new Date(t0).toISOString().slice(0, 16)} → ${new Date(t1).toISOString().slice(0, 16)}`),
  );
}

export function usageView(root: HTMLElement): () => void {
  root.replaceChildren(h("section.usage", {}, h("p.meta", {}, "loading…")));
  void getJson<UsageEntry[]>("/api/usage").then((entries) => {
    root.replaceChildren(h("section.usage", {}, ...DIMS.map((d) => chart(d, entries))));
    document.body.setAttribute("data-usage-loaded", String(entries.length));
  });
  return () => {};
}
