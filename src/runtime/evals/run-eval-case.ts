/**
 * One case of an eval (`luma eval`, docs/eval.md): a run of the program of its own whose
 * body is the eval's block, with the dataset line bound to `case` and each `score` recorded.
 * Like a `luma FILE` run it opens the program's resources (config, tools, models, stores) and
 * releases them at its end, so cases share nothing but the process; unlike one, it neither
 * guards the process nor listens for signals — `run-evals.ts` does that once for every case
 * running at the same time.
 *
 * What it measures: the scores, the wall time, and the tokens and cost of the case's asks,
 * read from the run's `run.usage` event (the same numbers `--usage` prints).
 */
import type { Program } from "../../syntax/ast";
import { openProgram, programHostOf } from "../open-program";
import { runProgram } from "../interpreter/run-program";
import type { RunLifecycle } from "../run/run-lifecycle";
import type { StartOptions } from "../start-options";
import type { EvalCaseInput } from "./read-dataset";

export interface EvalCaseResult {
  line: number;
  id?: string;
  /** Each score the case recorded, by name (a score recorded twice keeps its last value). */
  scores: Record<string, boolean | number>;
  /** Why the case did not run to its end: a failed ask, a runtime error, a bad score. */
  error?: unknown;
  durationMs: number;
  tokensIn: number | null;
  tokensOut: number | null;
  /** USD, from the models' prices; null when a model has no price (or nothing was asked). */
  costUsd: number | null;
  /** What the case printed (stdout and stderr in order), shown under a failed case. */
  output: string[];
  /** The case's run in the journal, when one is configured (`luma runs show ID`, `luma ui`). */
  runId?: string;
}

export type CaseOptions = Omit<StartOptions, "args" | "stdout" | "stderr" | "stdoutText">;

interface UsageTotal {
  tokens_in: number | null;
  tokens_out: number | null;
  cost_usd: number | null;
}

export async function runEvalCase(program: Program, input: EvalCaseInput, opts: CaseOptions, lifecycle: RunLifecycle): Promise<EvalCaseResult> {
  const output: string[] = [];
  const scores: Record<string, boolean | number> = {};
  let usage: UsageTotal | undefined;
  const observe = (event: object) => {
    if ((event as { event?: string }).event === "run.usage") usage = (event as { total: UsageTotal }).total;
    opts.observe?.(event);
  };
  const line = (l: string) => void output.push(l);
  const t0 = performance.now();
  let error: unknown;
  let runId: string | undefined;
  try {
    const open = await lifecycle.run(openProgram(program, { ...opts, observe, stdout: line, stderr: line }, lifecycle));
    runId = open.journal?.runId;
    let runError: unknown;
    try {
      await lifecycle.run(
        runProgram(program, {
          ...programHostOf(open, opts),
          args: [],
          stdout: line,
          stderr: line,
          stopped: lifecycle.stopped,
          evalCase: { value: input.value, score: (name, value) => void (scores[name] = value) },
        }),
      );
    } catch (e) {
      runError = e;
      throw e;
    } finally {
      await open.close(runError);
    }
  } catch (e) {
    error = e;
  }
  const result: EvalCaseResult = {
    line: input.line,
    scores,
    durationMs: performance.now() - t0,
    tokensIn: usage?.tokens_in ?? null,
    tokensOut: usage?.tokens_out ?? null,
    costUsd: usage ? usage.cost_usd : null,
    output,
  };
  if (input.id !== undefined) result.id = input.id;
  if (runId !== undefined) result.runId = runId;
  if (error !== undefined) result.error = error;
  return result;
}
