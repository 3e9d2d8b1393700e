/**
 * Runs one `eval` block over its dataset (`luma eval`, docs/eval.md): every line a case
 * (run-eval-case.ts), at most `concurrency` at once, results in the dataset's order.
 *
 * The process is guarded once for all the cases in flight — a tool module's stray
 * `process.exit` or uncaught error stops every running case (base/exit-guard.ts), a
 * handler's `console.log` goes to stderr, and Ctrl-C or SIGTERM stops every running case
 * gracefully (run/stop-on-signal.ts: claims released, journal runs ended), starts no other
 * and ends the eval with 130 / 143 — rather than once per case: guards installed and removed
 * by overlapping runs would undo one another.
 *
 * Models are real by default. `record` saves every provider exchange of every case to one
 * cassette (a shared transport: one file, in the order the answers came); `replay` answers
 * every case from a cassette, offline — each case matches its requests by their hash, so
 * the order the cases run in does not matter.
 */
import type { EvalDecl, Program } from "../../syntax/ast";
import { installExitGuard } from "../base/exit-guard";
import { recordingTransport } from "../providers/cassette";
import { fetchTransport, type Transport } from "../providers/transport";
import { redirectConsoleToStderr } from "../run/console-to-stderr";
import { createRunLifecycle, type RunLifecycle } from "../run/run-lifecycle";
import { stopOnSignal } from "../run/stop-on-signal";
import { exitProcess } from "../base/exit-guard";
import { strayError } from "../run/stray-error";
import { readDataset } from "./read-dataset";
import { runEvalCase, type CaseOptions, type EvalCaseResult } from "./run-eval-case";

export type { EvalCaseResult } from "./run-eval-case";

/** How many cases run at once when `--concurrency` is not given. */
export const DEFAULT_EVAL_CONCURRENCY = 8;

export interface RunEvalOptions extends Omit<CaseOptions, "record" | "askHooks"> {
  concurrency?: number;
  /** Where a tool module's console output goes while cases run (the CLI's stderr). */
  stderr: (line: string) => void;
  /** `--record FILE`: the one recording transport of the whole `luma eval` (`recordingEvalTransport`). */
  transport?: Transport;
  /** Each case as it ends (in the order they end). */
  onCase?: (result: EvalCaseResult) => void;
}

/** `--record FILE`: one cassette for every case of every eval (created, emptied, now: an unwritable path fails before any case). */
export function recordingEvalTransport(record: { path: string; label: string }): Transport {
  return recordingTransport(fetchTransport({}), record.path, record.label);
}

export interface EvalRun {
  eval: EvalDecl;
  /** The dataset's absolute path. */
  dataset: string;
  cases: EvalCaseResult[];
}

/** Runs `evalDecl` of `program` (checked, its declarations linked) once per dataset line. */
export async function runEval(program: Program, evalDecl: EvalDecl, opts: RunEvalOptions): Promise<EvalRun> {
  const { path, cases } = readDataset(evalDecl, opts.file, opts.cwd, opts.sourceOf);
  // One program for every case: its name resolution and async analysis are made once.
  const body: Program = { ...program, body: evalDecl.body, tests: undefined };
  const { transport, concurrency, onCase, ...rest } = opts;
  const caseOpts: CaseOptions = { ...rest, askHooks: transport && { transport } };
  const running = new Set<RunLifecycle>();
  const unguard = installExitGuard((thrown) => {
    for (const lifecycle of running) lifecycle.stop(strayError(thrown, lifecycle.inFlight()));
  });
  const restoreConsole = redirectConsoleToStderr(opts.stderr);
  // The eval's own lifecycle: a signal stops it, and with it every case running.
  const whole = createRunLifecycle();
  const unlisten = stopOnSignal({ ...whole, stop: (r) => (whole.stop(r), running.forEach((l) => l.stop(r))) }, exitProcess);
  const results: EvalCaseResult[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length && whole.stopped() === undefined) {
      const i = next++;
      const lifecycle = createRunLifecycle();
      running.add(lifecycle);
      try {
        results[i] = await runEvalCase(body, cases[i], caseOpts, lifecycle);
      } finally {
        running.delete(lifecycle);
      }
      onCase?.(results[i]);
    }
  };
  try {
    const width = Math.max(1, Math.min(concurrency ?? DEFAULT_EVAL_CONCURRENCY, cases.length));
    await Promise.all(Array.from({ length: width }, worker));
    const stopped = whole.stopped();
    if (stopped !== undefined) throw stopped;
  } finally {
    unlisten();
    restoreConsole();
    unguard();
  }
  return { eval: evalDecl, dataset: path, cases: results };
}
