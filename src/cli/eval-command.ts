/**
 * `luma eval [PATH…]` (issue #31 §2, docs/eval.md): finds the eval files (a directory: every
 * `*.eval.luma` under it; a file: that file), runs each `eval` block over its dataset
 * (runtime/evals/), once more per `--model AGENT=MODEL` with the agent on the other model,
 * prints the report (eval-report.ts) and writes the `--format junit|json FILE` ones.
 *
 * Exit 0 unless a case errored, a file did not load, or a `--min NAME=VALUE` bar was missed
 * (exit 1); no eval at all is E1414 (exit 1: a job that measures nothing is misconfigured),
 * a `--min` naming no score E1412.
 */
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { EvalCommand } from "./dev-loop-argv";
import { EXIT, reportError } from "./report-error";
import { junitXml } from "./junit-report";
import { lumaFilesUnder } from "./test-command";
import { COMMAND_TABLE } from "./command-table-argv";
import { checkBars, evalJson, jsonReport, junitCases, summarize, textReport, type EvalSummary } from "./eval-report";
import { startupError } from "../diagnostics/luma-error";
import { openMcpTools } from "../mcp/open-mcp-tools";
import type { Program } from "../syntax/ast";

export interface EvalHost {
  cwd: string;
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
  sources: Map<string, string>;
  color: boolean;
}

export async function runEvalCommand(cmd: EvalCommand, host: EvalHost): Promise<number> {
  const files = [...new Set(cmd.paths.flatMap((p) => lumaFilesUnder(p, ".eval.luma")))];
  const { loadTestProgram } = await import("../load/load-test-program");
  const { swappedProgram } = await import("./eval-model-swap");
  const { runEval, recordingEvalTransport } = await import("../runtime/evals/run-evals");
  const sourceOf = (f: string) => host.sources.get(f);
  const render = (e: unknown, color = false) => reportError(e, { color, sourceOf, debug: host.env.LUMA_DEBUG === "1" }).text;
  // A cassette that cannot be read fails once, before any case runs (not once per case).
  if (cmd.replay !== undefined) {
    const { loadCassette } = await import("../runtime/providers/cassette");
    const option = COMMAND_TABLE.eval.options.find((row) => row.field === "replay")!.name;
    loadCassette({ path: resolve(host.cwd, cmd.replay), label: cmd.replay, namedBy: option });
  }
  const transport = cmd.record === undefined ? undefined : recordingEvalTransport({ path: resolve(host.cwd, cmd.record), label: cmd.record });
  const summaries: EvalSummary[] = [];
  let broken = 0;
  for (const file of files) {
    let program: Program;
    try {
      program = (await loadTestProgram(file, host.sources)).program;
    } catch (e) {
      broken++;
      host.out(`FAIL ${file} (the file does not load)`);
      host.out(render(e, host.color));
      continue;
    }
    const variants: { program: Program; label?: string }[] = [{ program }];
    if (cmd.modelSwap && (program.evals ?? []).length > 0) {
      variants.push({ program: swappedProgram(program, cmd.modelSwap), label: `${cmd.modelSwap.agent}=${cmd.modelSwap.model}` });
    }
    for (const evalDecl of program.evals ?? []) {
      for (const variant of variants) {
        const run = await runEval(variant.program, evalDecl, {
          file,
          cwd: host.cwd,
          env: host.env,
          stderr: host.err,
          sourceOf,
          interactive: false,
          toolModules: cmd.toolModules,
          configPath: cmd.config,
          replay: cmd.replay,
          transport,
          concurrency: cmd.concurrency,
          openRemoteTools: openMcpTools,
        });
        summaries.push(summarize(file, run, variant.label));
      }
    }
  }
  if (summaries.length === 0 && broken === 0) {
    throw startupError(`no eval found in ${cmd.paths.join(", ")} (eval blocks live in *.eval.luma files)`, { catalogCode: "E1414", phase: "runtime" });
  }
  for (const line of textReport(summaries, (e) => render(e, host.color))) host.out(line);
  const { results: bars, unknown } = checkBars(summaries, cmd.mins);
  if (unknown.length > 0) {
    const recorded = [...new Set(summaries.flatMap((s) => s.scores.map((x) => x.name)))];
    throw startupError(`--min ${unknown.join(", ")}: no eval that ran records such a score (recorded: ${recorded.join(", ") || "none"})`, { catalogCode: "E1412" });
  }
  for (const b of bars) host.out(`min ${b.score} ${b.bar}${b.variant ? ` [${b.variant}]` : ""} (${b.eval}): mean ${b.mean.toFixed(2)} ${b.passed ? "met" : "MISSED"}`);
  const errored = summaries.reduce((t, s) => t + s.errored, 0);
  const missed = bars.filter((b) => !b.passed).length;
  const passed = errored === 0 && missed === 0 && broken === 0;
  host.out(`${summaries.reduce((t, s) => t + s.run.cases.length, 0)} cases, ${errored} errored${missed > 0 ? `, ${missed} bar${missed === 1 ? "" : "s"} missed` : ""}`);
  await recordInJournals(cmd, host, summaries, (e) => render(e));
  for (const report of cmd.reports) {
    const text = report.format === "json" ? jsonReport(summaries, bars, (e) => render(e), passed) : junitXml(junitCases(summaries, (e) => render(e)), "luma eval");
    try {
      writeFileSync(resolve(host.cwd, report.file), text);
    } catch (e) {
      throw startupError(`cannot write ${report.file}: ${(e as Error).message}`, { catalogCode: "E1415" });
    }
  }
  return passed ? EXIT.ok : EXIT.runtime;
}

/**
 * Each eval whose cases ran as journal runs is recorded in that journal (the one its file's
 * config names), for `luma ui`'s Evals view; evals without a journal are not recorded.
 */
async function recordInJournals(cmd: EvalCommand, host: EvalHost, summaries: readonly EvalSummary[], renderError: (e: unknown) => string): Promise<void> {
  const journaled = summaries.filter((s) => s.run.cases.some((c) => c.runId !== undefined));
  if (journaled.length === 0) return;
  const { recordEvals } = await import("../runtime/evals/eval-record");
  const invocation = `eval-${new Date().toISOString().replace(/[-:.]/g, "").slice(0, 15)}-${crypto.randomUUID().slice(0, 8)}`;
  const at = Date.now();
  // A file's cases opened the journal of the config found from the file's folder (or --config).
  const byDir = new Map<string, EvalSummary[]>();
  for (const s of journaled) {
    const dir = dirname(resolve(host.cwd, s.file));
    byDir.set(dir, [...(byDir.get(dir) ?? []), s]);
  }
  for (const [dir, list] of byDir) {
    const journal = { config: cmd.config === undefined ? undefined : resolve(host.cwd, cmd.config), cwd: dir, env: host.env };
    await recordEvals(journal, list.map((s) => ({ id: `${invocation}/${summaries.indexOf(s) + 1}`, invocation, at, ...evalJson(s, renderError) })));
  }
}
