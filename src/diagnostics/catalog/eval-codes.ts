/**
 * E1401–E1419: `luma eval` (issue #31 §2, docs/eval.md). Two groups, as the stages that
 * report them: the checker's rules about `eval` blocks and `score` statements
 * (`CHECK_EVAL_DIAGNOSTICS`, worded entries joined in check-codes.ts, reported by
 * `src/check/rules/evals.ts`), and what `luma eval` itself rejects before or while it runs
 * the cases — a dataset it cannot read, a line that is not JSON, a bad `--min` or `--model`
 * (`evalCodes`, raised as start-up errors with their `catalogCode`).
 */
import type { CatalogEntry, WordedEntry } from "./catalog-entry";

export const CHECK_EVAL_DIAGNOSTICS = {
  evalOutsideEvalFile: {
    code: "E1401",
    title: "`eval` block outside a `*.eval.luma` file",
    text: (file: string) => `An 'eval' block belongs in a file named *.eval.luma ('${file}' is not): 'luma eval DIR' runs every such file, and 'luma FILE' never runs an eval.`,
    explanation:
      "`eval NAME over DATASET { … }` is run by `luma eval` only, which finds eval files by their name (`luma eval evals/` runs every `*.eval.luma` under it). Keeping evals in their own files keeps programs free of them: move the block to a file such as `triage.eval.luma` that imports what it uses.",
    example: 'eval "routes" over "cases.jsonl" {\n  print(case)\n}',
  },
  scoreOutsideEval: {
    code: "E1402",
    title: "`score` outside an `eval` block",
    text: () => "'score' records a score of an eval's case: it may stand only in an 'eval' block.",
    explanation:
      "`score \"name\" expr` records one score for the case an `eval` block is running (a bool, or a number in [0, 1]); there is no case outside an eval, so anywhere else (top-level code, a function, a method, a test) it is an error. A function that computes a score returns it, and the eval's block records it.",
    example: 'score "route" true',
  },
  duplicateEvalName: {
    code: "E1403",
    title: "two `eval` blocks with the same name",
    text: (name: string) => `Two 'eval' blocks in this file are named '${name}': the report names each eval by its name.`,
    explanation: "The report (text, JUnit, JSON) and `--min` speak of an eval by its name, so the names of a file's `eval` blocks are distinct.",
    example: 'eval "a" over "x.jsonl" { print(case) }\neval "a" over "y.jsonl" { print(case) }',
  },
  scoreNotScorable: {
    code: "E1404",
    title: "`score` value that is neither a bool nor a number",
    text: (name: string, type: string) => `Score '${name}' must be a bool or a number in [0, 1], not ${type}.`,
    explanation:
      "A score is what the report averages over the cases: a bool (true counts 1, false 0) or a number in [0, 1] (a grader's rating). A value of another type is an error; one known only at run time (`any`, a field of `case`) is checked when the case runs, and a number outside [0, 1] fails the case then.",
    example: 'eval "routes" over "cases.jsonl" {\n  score "route" "yes"\n}',
  },
  caseAssigned: {
    code: "E1405",
    title: "assignment to `case` in an `eval` block",
    text: () => "'case' is the dataset line the eval is running and cannot be assigned: use a variable of another name.",
    explanation: "Inside an `eval` block, `case` is the current line of the dataset (parsed JSON). It is read-only, so every score of the case is computed from the same line.",
    example: 'eval "routes" over "cases.jsonl" {\n  case = 1\n}',
  },
  scoreOutOfRange: {
    code: "E1406",
    title: "`score` number written outside [0, 1]",
    text: (name: string, value: string) => `Score '${name}' must be in [0, 1], not ${value}.`,
    explanation: "A numeric score is a fraction of full marks, from 0 to 1. A literal outside that range is an error here; a computed one fails its case at run time.",
    example: 'eval "routes" over "cases.jsonl" {\n  score "route" 5\n}',
  },
} satisfies Record<string, WordedEntry>;

/** What `luma eval` rejects itself: the dataset, the command line's bars and models, the report. */
export const evalCodes = [
  {
    code: "E1410",
    title: "eval dataset cannot be read",
    explanation:
      "The dataset of `eval NAME over \"path.jsonl\"` is read relative to the eval file's directory, before any case runs. A missing or unreadable file is an error naming the eval and the path it looked at.",
    example: 'eval "routes" over "no-such-file.jsonl" { print(case) }',
  },
  {
    code: "E1411",
    title: "eval dataset line that is not JSON",
    explanation:
      "A dataset is JSON Lines: one JSON value per line (blank lines are skipped). A line that does not parse is an error naming the file and the line number, before any case runs, so a half-broken dataset never yields a partial score.",
    example: '{"input": "hi"}\n{input: hi}',
  },
  {
    code: "E1412",
    title: "`--min` names no score",
    explanation:
      "`luma eval --min route=0.9` sets a bar for the mean of score `route`; a name that no eval that ran records is an error (a misspelt bar would otherwise always pass). The value is a number in [0, 1].",
    example: "luma eval evals/ --min rout=0.9",
  },
  {
    code: "E1413",
    title: "`--model` names no agent or no model",
    explanation:
      "`luma eval --model Triage=Other` runs every case a second time with agent `Triage` answering through model `Other`, and reports the two side by side. `Triage` must be an agent of the eval's program, and `Other` a model it declares.",
    example: "luma eval evals/ --model Triage=NoSuchModel",
  },
  {
    code: "E1414",
    title: "no eval found",
    explanation: "`luma eval PATH…` found no `eval` block: a directory holds no `*.eval.luma` file, or the files hold none. An eval job that measures nothing is misconfigured, so this fails (exit 1).",
    example: "luma eval empty-dir/",
  },
  {
    code: "E1415",
    title: "eval report cannot be written",
    explanation: "`luma eval --format junit|json FILE` writes the report to FILE; a missing directory or a permission problem is an error after the cases ran (their results are printed all the same).",
    example: "luma eval evals/ --format json /no-such-dir/report.json",
  },
  {
    code: "E1416",
    title: "eval cannot be recorded in the journal",
    explanation:
      "When a journal is configured, each case of `luma eval` is a run in it, and after the cases ran each eval's report (scores, cases, their runs) is recorded there too, for `luma ui`'s Evals view. A journal that cannot be written then (a read-only file, a server gone) is this error; the report was printed all the same.",
    example: "luma eval evals/   (luma.config.json \"journal\" on a database that went away during the run)",
  },
] as const satisfies readonly CatalogEntry[];

/** The E14xx codes `luma eval` raises itself: part of the catalog's `DiagnosticCode`. */
export type EvalCode = (typeof evalCodes)[number]["code"];
