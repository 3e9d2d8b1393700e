/**
 * `luma eval`'s report (docs/eval.md), from the runs' results: per score its mean and the
 * failing cases (named by dataset line, and `case.id` when the line has one), per case its
 * scores, tokens, cost and time; with `--model`, each eval once per model, side by side.
 * Three renderings of one summary: text for people, JSON (what `luma ui` and scripts read)
 * and JUnit XML for CI (junit-report.ts, one test case per dataset line).
 *
 * A case fails a score when it recorded `false` or a number below 0.5, or did not record it
 * (it errored, or its block never reached the `score`): such a case counts 0 in the mean, so
 * a score cannot look better because cases broke.
 */
import type { EvalRun } from "../runtime/evals/run-evals";
import type { EvalCaseResult } from "../runtime/evals/run-eval-case";
import type { JunitCase } from "./junit-report";

/** A numeric score below this is a failing case of that score. */
export const PASSING_SCORE = 0.5;

export interface ScoreSummary {
  name: string;
  mean: number;
  failing: { line: number; id?: string }[];
}

export interface EvalSummary {
  name: string;
  file: string;
  dataset: string;
  /** `AGENT=MODEL` for a `--model` run; absent for the program as written. */
  variant?: string;
  run: EvalRun;
  scores: ScoreSummary[];
  errored: number;
}

export interface BarResult {
  score: string;
  bar: number;
  eval: string;
  variant?: string;
  mean: number;
  passed: boolean;
}

const numeric = (v: boolean | number | undefined): number => (v === undefined ? 0 : typeof v === "boolean" ? (v ? 1 : 0) : v);
const fails = (v: boolean | number | undefined) => v === undefined || numeric(v) < PASSING_SCORE;
export const caseName = (c: { line: number; id?: string }) => `line ${c.line}${c.id === undefined ? "" : ` (id ${c.id})`}`;

export function summarize(file: string, run: EvalRun, variant?: string): EvalSummary {
  const names: string[] = [];
  for (const c of run.cases) for (const n of Object.keys(c.scores)) if (!names.includes(n)) names.push(n);
  const scores = names.map((name): ScoreSummary => {
    const total = run.cases.reduce((t, c) => t + numeric(c.scores[name]), 0);
    const failing = run.cases.filter((c) => fails(c.scores[name])).map((c) => (c.id === undefined ? { line: c.line } : { line: c.line, id: c.id }));
    return { name, mean: run.cases.length === 0 ? 0 : total / run.cases.length, failing };
  });
  const summary: EvalSummary = { name: run.eval.name, file, dataset: run.dataset, run, scores, errored: run.cases.filter((c) => c.error !== undefined).length };
  if (variant !== undefined) summary.variant = variant;
  return summary;
}

const fixed = (n: number) => n.toFixed(2);
const usd = (n: number | null) => (n === null ? "-" : `$${n.toFixed(4)}`);
const tokens = (c: EvalCaseResult) => `${c.tokensIn ?? "-"}/${c.tokensOut ?? "-"} tok`;
const scoreText = (v: boolean | number) => (typeof v === "boolean" ? String(v) : fixed(v));

/** The text report: each eval's cases, its scores, then (with `--model`) the side-by-side table. */
export function textReport(summaries: readonly EvalSummary[], renderError: (e: unknown) => string): string[] {
  const lines: string[] = [];
  for (const s of summaries) {
    lines.push(`eval "${s.name}"${s.variant ? ` [${s.variant}]` : ""} — ${s.file}, ${s.run.cases.length} case${s.run.cases.length === 1 ? "" : "s"}`);
    const scoresOf = (c: EvalCaseResult) => Object.entries(c.scores).map(([n, v]) => `${n}=${scoreText(v)}`).join(" ");
    // Columns as wide as their widest cell, so the cases line up.
    const nameWidth = Math.max(0, ...s.run.cases.map((c) => caseName(c).length));
    const scoreWidth = Math.max(0, ...s.run.cases.map((c) => scoresOf(c).length));
    for (const c of s.run.cases) {
      const head = `  ${c.error === undefined ? "ok  " : "ERR "} ${caseName(c).padEnd(nameWidth)}  ${scoresOf(c).padEnd(scoreWidth)}  ${tokens(c)}  ${usd(c.costUsd)}  ${(c.durationMs / 1000).toFixed(2)}s`;
      lines.push(head.trimEnd());
      if (c.error === undefined) continue;
      lines.push(...renderError(c.error).split("\n").map((l) => `      ${l}`));
      // What the failed case printed helps tell why (as `luma test` shows under a failure).
      if (c.output.length > 0) lines.push("      output:", ...c.output.map((l) => `        ${l}`));
    }
    for (const sc of s.scores) {
      const failing = sc.failing.length === 0 ? "" : `  failing: ${sc.failing.map(caseName).join(", ")}`;
      lines.push(`  score ${sc.name}: mean ${fixed(sc.mean)}${failing}`);
    }
  }
  lines.push(...sideBySide(summaries));
  return lines;
}

/** `--model`: one row per eval and score, one column per model. */
function sideBySide(summaries: readonly EvalSummary[]): string[] {
  const variants = [...new Set(summaries.map((s) => s.variant ?? "as written"))];
  if (variants.length < 2) return [];
  const lines = [`side by side: ${variants.join(" | ")}`];
  for (const base of summaries.filter((s) => s.variant === undefined)) {
    const others = summaries.filter((s) => s.run.eval === base.run.eval && s.variant !== undefined);
    for (const sc of base.scores) {
      const cells = [sc.mean, ...others.map((o) => o.scores.find((x) => x.name === sc.name)?.mean ?? 0)].map(fixed);
      lines.push(`  ${base.name} › ${sc.name}: ${cells.join(" | ")}`);
    }
    const cost = (s: EvalSummary) => usd(s.run.cases.every((c) => c.costUsd !== null) ? s.run.cases.reduce((t, c) => t + (c.costUsd ?? 0), 0) : null);
    lines.push(`  ${base.name} › cost: ${[base, ...others].map(cost).join(" | ")}`);
  }
  return lines;
}

/** The `--min` bars against every run of every eval that records the score. */
export function checkBars(summaries: readonly EvalSummary[], mins: readonly { score: string; bar: number }[]): { results: BarResult[]; unknown: string[] } {
  const results: BarResult[] = [];
  const unknown: string[] = [];
  for (const { score, bar } of mins) {
    const found = summaries.flatMap((s) => s.scores.filter((x) => x.name === score).map((x) => ({ s, mean: x.mean })));
    if (found.length === 0) unknown.push(score);
    for (const { s, mean } of found) {
      const r: BarResult = { score, bar, eval: s.name, mean, passed: mean >= bar };
      if (s.variant !== undefined) r.variant = s.variant;
      results.push(r);
    }
  }
  return { results, unknown };
}

/** The JSON report: what `luma ui` and scripts read (snake_case, as the trace's events). */
/** One eval of the JSON report (also what the journal keeps for `luma ui`, runtime/evals/eval-record.ts). */
export const evalJson = (s: EvalSummary, renderError: (e: unknown) => string) => ({
  name: s.name,
  file: s.file,
  dataset: s.dataset,
  variant: s.variant ?? null,
  scores: Object.fromEntries(s.scores.map((x) => [x.name, { mean: x.mean, failing: x.failing }])),
  cases: s.run.cases.map((c) => ({
    line: c.line,
    id: c.id ?? null,
    scores: c.scores,
    error: c.error === undefined ? null : renderError(c.error),
    duration_ms: Math.round(c.durationMs),
    tokens_in: c.tokensIn,
    tokens_out: c.tokensOut,
    cost_usd: c.costUsd,
    run_id: c.runId ?? null,
  })),
});

export function jsonReport(summaries: readonly EvalSummary[], bars: readonly BarResult[], renderError: (e: unknown) => string, passed: boolean): string {
  const report = {
    passed,
    evals: summaries.map((s) => evalJson(s, renderError)),
    mins: bars.map((b) => ({ score: b.score, bar: b.bar, eval: b.eval, variant: b.variant ?? null, mean: b.mean, passed: b.passed })),
  };
  return JSON.stringify(report, null, 2) + "\n";
}

/** One JUnit test case per dataset line: failed when it errored or fails one of its scores. */
export function junitCases(summaries: readonly EvalSummary[], renderError: (e: unknown) => string): JunitCase[] {
  return summaries.flatMap((s) =>
    s.run.cases.map((c): JunitCase => {
      const suite = `${s.file} › ${s.name}${s.variant ? ` [${s.variant}]` : ""}`;
      const failedScores = s.scores.filter((sc) => fails(c.scores[sc.name])).map((sc) => `score ${sc.name}: ${c.scores[sc.name] === undefined ? "not recorded" : scoreText(c.scores[sc.name]!)}`);
      const failure = c.error !== undefined ? renderError(c.error) : failedScores.length > 0 ? failedScores.join("\n") : undefined;
      return failure === undefined ? { file: suite, name: caseName(c), durationMs: c.durationMs } : { file: suite, name: caseName(c), durationMs: c.durationMs, failure };
    }),
  );
}
