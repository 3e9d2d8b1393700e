/**
 * Records examples/120_eval/triage.cassette.jsonl, the cassette `luma eval examples/120_eval
 * --replay …` runs offline (docs/eval.md), with and without `--model Triage=Careful`, against
 * the fake provider: the eval runs once through the built binary, one case at a time (so the scripted answers meet their cases),
 * each model redirected to the fake with `LUMA_BASE_URL_<MODEL>`.
 *
 *   bun tests/support/fake-provider/record-eval-cassette.ts
 *
 * Re-run it after changing the example's prompts, schemas or dataset: they change the hashes.
 */
import { ensureBinary, REPO } from "../luma-binary";
import { startFakeProvider, type FakeTurn } from "./fake-provider";

/** Per dataset line: Triage's answer, then Grader's rating of its reply. */
export const EVAL_TURNS: FakeTurn[] = [
  { json: { route: "billing", reply: "Sorry about the double charge: we will refund it today." } },
  { json: { score: 0.9 } },
  { json: { route: "billing", reply: "Our billing team will look into your account." } },
  { json: { score: 0.6 } },
  { json: { route: "sales", reply: "Yes: our sales team will send you team pricing." } },
  { json: { score: 0.8 } },
  // The same lines with `--model Triage=Careful`: Triage on the other model, Grader unchanged.
  { json: { route: "billing", reply: "We are sorry for the double charge and will refund it today." } },
  { json: { score: 1 } },
  { json: { route: "support", reply: "Our support team will help you log in again." } },
  { json: { score: 0.9 } },
  { json: { route: "sales", reply: "Our sales team will send you team pricing." } },
  { json: { score: 0.8 } },
];

export async function recordEvalCassette(): Promise<void> {
  const fake = await startFakeProvider();
  try {
    fake.script(EVAL_TURNS);
    const proc = Bun.spawn(
      [ensureBinary(), "eval", "examples/120_eval", "--concurrency", "1", "--model", "Triage=Careful", "--record", "examples/120_eval/triage.cassette.jsonl"],
      {
        cwd: REPO,
        env: { PATH: process.env.PATH, LUMA_NO_CACHE: "1", OPENAI_API_KEY: "recorded-against-the-fake-provider", LUMA_BASE_URL_FAST: fake.baseUrl("openai"), LUMA_BASE_URL_CAREFUL: fake.baseUrl("openai") },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0 || fake.pending !== 0) throw new Error(`recording failed (exit ${code}, ${fake.pending} turn(s) unused):\n${out}${err}`);
    console.log(out);
  } finally {
    fake.stop();
  }
}

if (import.meta.main) await recordEvalCassette();
