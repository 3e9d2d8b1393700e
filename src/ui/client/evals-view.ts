/**
 * Evals: what each `luma eval` recorded in the journals (docs/eval.md#in-luma-ui), newest
 * first. Per eval, per score its mean and failing cases; every case links to its run's
 * timeline; the `--model` variants of one `luma eval` stand side by side, one column each.
 */
import { getJson, type EvalView } from "./api";
import { fmtMs, fmtTime, fmtUsd, h } from "./dom";

type Case = EvalView["cases"][number];
const caseName = (c: { line: number; id?: string | null }) => `line ${c.line}${c.id === null || c.id === undefined ? "" : ` (id ${c.id})`}`;
const scoreText = (v: boolean | number | undefined) => (v === undefined ? "–" : typeof v === "boolean" ? String(v) : v.toFixed(2));
const variantName = (e: EvalView) => e.variant ?? "as written";
const costOf = (e: EvalView): number | null => (e.cases.some((c) => c.cost_usd !== null) ? e.cases.reduce((t, c) => t + (c.cost_usd ?? 0), 0) : null);

/** A case's cell: its scores, linked to its run when it has one. */
const caseCell = (c: Case | undefined, variant: string) => {
  if (c === undefined) return h("td", {}, "–");
  const text = c.error !== null ? `ERR ${Object.entries(c.scores).map(([n, v]) => `${n}=${scoreText(v)}`).join(" ")}` : Object.entries(c.scores).map(([n, v]) => `${n}=${scoreText(v)}`).join(" ");
  const body = c.run === null ? h("span", {}, text) : h("a.case-run", { href: `#/run/${encodeURIComponent(c.run)}`, "data-case": String(c.line), "data-variant": variant }, text);
  return h(c.error !== null ? "td.case-err" : "td", { title: c.error ?? `${c.tokens_in ?? "–"} / ${c.tokens_out ?? "–"} tok · ${fmtUsd(c.cost_usd)} · ${fmtMs(c.duration_ms)}` }, body);
};

/** One eval of one `luma eval`: its variants (as written, then each `--model`) as columns. */
function evalTable(variants: EvalView[]): HTMLElement {
  const first = variants[0];
  const names = [...new Set(variants.flatMap((v) => Object.keys(v.scores)))];
  const head = h("tr", {}, h("th", {}, ""), ...variants.map((v) => h("th", {}, variantName(v))));
  const scoreRows = names.map((n) =>
    h("tr", { "data-score": n },
      h("th", {}, `score ${n}`),
      ...variants.map((v) => {
        const s = v.scores[n];
        if (s === undefined) return h("td", {}, "–");
        const failing = s.failing.map((f) => {
          const c = v.cases.find((x) => x.line === f.line);
          return c?.run ? h("a.failing", { href: `#/run/${encodeURIComponent(c.run)}` }, caseName(f)) : h("span.failing", {}, caseName(f));
        });
        return h("td", { "data-variant": variantName(v) }, h("b.mean", {}, `mean ${s.mean.toFixed(2)}`), failing.length > 0 ? h("span.meta", {}, "  failing: ") : null, ...failing.flatMap((f, i) => (i === 0 ? [f] : [", ", f])));
      }),
    ),
  );
  const costRow = h("tr", {}, h("th", {}, "cost"), ...variants.map((v) => h("td", {}, fmtUsd(costOf(v)))));
  const lines = [...new Set(variants.flatMap((v) => v.cases.map((c) => c.line)))].sort((a, b) => a - b);
  const caseRows = lines.map((line) => {
    const c0 = variants.map((v) => v.cases.find((c) => c.line === line)).find((c) => c !== undefined)!;
    return h("tr.case", { "data-line": String(line) }, h("th", {}, caseName(c0)), ...variants.map((v) => caseCell(v.cases.find((c) => c.line === line), variantName(v))));
  });
  return h("section.eval", { "data-eval": first.name },
    h("h3", {}, `eval "${first.name}"`, h("span.meta", {}, ` — ${first.file}, ${lines.length} cases`)),
    h("table.eval-table", {}, h("thead", {}, head), h("tbody", {}, ...scoreRows, costRow, ...caseRows)),
  );
}

export function evalsView(root: HTMLElement): () => void {
  const count = h("span.count");
  const body = h("div.evals-body");
  root.replaceChildren(h("section.evals", {}, h("div.toolbar", {}, count), body));
  getJson<EvalView[]>("/api/evals").then(
    (evals) => {
      // One group per `luma eval` (newest first), in it one table per eval (file and name), variants in the order they ran.
      const groups = new Map<string, EvalView[]>();
      for (const e of evals) groups.set(e.invocation, [...(groups.get(e.invocation) ?? []), e]);
      count.textContent = `${evals.length} eval${evals.length === 1 ? "" : "s"} recorded by ${groups.size} run${groups.size === 1 ? "" : "s"} of luma eval`;
      body.replaceChildren(
        ...(groups.size === 0 ? [h("p.meta", {}, "No eval recorded: luma eval records its evals in the journal when one is configured.")] : []),
        ...[...groups.values()].map((list) => {
          const ordered = [...list].sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
          const byEval = new Map<string, EvalView[]>();
          for (const e of ordered) byEval.set(`${e.file}\u0000${e.name}`, [...(byEval.get(`${e.file}\u0000${e.name}`) ?? []), e]);
          return h("div.eval-group", { "data-invocation": ordered[0].invocation },
            h("h2", {}, "luma eval ", h("span.meta", {}, `${fmtTime(ordered[0].at)} · ${ordered[0].source}`)),
            ...[...byEval.values()].map(evalTable),
          );
        }),
      );
      document.body.setAttribute("data-evals-loaded", String(evals.length));
    },
    (e) => body.replaceChildren(h("p.error", {}, String((e as Error).message))),
  );
  return () => {};
}
