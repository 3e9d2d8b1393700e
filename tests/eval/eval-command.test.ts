/**
 * Issue #31 §2, `luma eval`, through the real `dist/luma` and the fake provider's real wire
 * format: an eval block runs once per dataset line with the line bound to `case`, its scores
 * are averaged with the failing cases named by line and id, each case shows its tokens, cost
 * and time; `--record` saves a cassette that `--replay` runs offline (no key, concurrently);
 * `--min` bars decide the exit code; `--format json|junit` write the reports; `--model`
 * runs the dataset again with an agent on another model, side by side. Bad datasets and bad
 * scores are errors that name the line and the score.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, REPO, runLuma, runLumaAsync } from "../support/luma-binary";
import { startFakeProvider } from "../support/fake-provider/fake-provider";

const fake = await startFakeProvider();
afterAll(() => fake.stop());

const EXAMPLE = join(REPO, "examples", "120_eval");
const KEY = { OPENAI_API_KEY: "sk-test-eval" };

/** A copy of examples/120_eval in a fresh directory (reports and cassettes are written there). */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-eval-"));
  for (const f of ["triage.luma", "triage.eval.luma", "cases.jsonl"]) copyFileSync(join(EXAMPLE, f), join(dir, f));
  return dir;
}

/** Triage's answer then Grader's, per case in dataset order (run with --concurrency 1). */
const routed = (route: string, reply: string) => ({ json: { route, reply } });
const rated = (score: number) => ({ json: { score } });
const SCRIPT = [
  routed("billing", "Sorry about the double charge: billing will refund it."), rated(0.9),
  routed("billing", "Billing will look into your login."), rated(0.6),
  routed("sales", "Yes, ask sales."), rated(0.3),
];

const live = (dir: string, args: string[]) =>
  runLumaAsync(["eval", dir, "--concurrency", "1", ...args], { ...KEY, LUMA_BASE_URL_FAST: fake.baseUrl("openai"), LUMA_BASE_URL_CAREFUL: fake.baseUrl("openai") });

describe("luma eval: a dataset's cases, scored, against the fake provider", () => {
  const dir = project();
  let recorded: Awaited<ReturnType<typeof live>>;

  test("each line runs with `case` bound; the report gives per score its mean and failing cases, per case its scores, tokens, cost and time", async () => {
    fake.script(SCRIPT);
    recorded = await live(dir, ["--record", join(dir, "cassette.jsonl")]);
    expect(recorded.stderr).toBe("");
    const out = recorded.stdout;
    expect(out).toContain(`eval "triage routes" — ${dir}/triage.eval.luma, 3 cases`);
    // The case's text reached the model: the prompt of line 2 holds its input.
    expect(JSON.stringify(fake.requests[2].body)).toContain("I cannot log in since yesterday.");
    expect(out).toMatch(/ok {3}line 1 \(id refund\) {3}route=true polite=0\.90 {3}\d+\/\d+ tok {2}\$0\.\d{4} {2}\d+\.\d\ds/);
    expect(out).toContain("score route: mean 0.67  failing: line 2 (id login)");
    expect(out).toContain("score polite: mean 0.60  failing: line 3 (id pricing)");
    expect(out).toContain("3 cases, 0 errored");
    expect(recorded.exitCode).toBe(0);
    expect(fake.pending).toBe(0);
  });

  test("--replay runs the recorded cassette offline: no key, every case at once, the same scores", async () => {
    const r = await runLumaAsync(["eval", dir, "--replay", join(dir, "cassette.jsonl")]);
    expect(r.stdout).toContain("score route: mean 0.67  failing: line 2 (id login)");
    expect(r.stdout).toContain("score polite: mean 0.60  failing: line 3 (id pricing)");
    expect(r.exitCode).toBe(0);
  });

  test("--min: a missed bar exits 1 and says so; a met one exits 0", async () => {
    const missed = await runLumaAsync(["eval", dir, "--replay", join(dir, "cassette.jsonl"), "--min", "route=0.9", "--min", "polite=0.5"]);
    expect(missed.stdout).toContain("min route 0.9 (triage routes): mean 0.67 MISSED");
    expect(missed.stdout).toContain("min polite 0.5 (triage routes): mean 0.60 met");
    expect(missed.exitCode).toBe(1);
    const met = await runLumaAsync(["eval", dir, "--replay", join(dir, "cassette.jsonl"), "--min", "route=0.6"]);
    expect(met.exitCode).toBe(0);
  });

  test("--min naming a score no eval records is E1412", async () => {
    const r = await runLumaAsync(["eval", dir, "--replay", join(dir, "cassette.jsonl"), "--min", "rout=0.9"]);
    expect(r.stderr).toContain("--min rout: no eval that ran records such a score (recorded: route, polite)");
    expect(r.stderr).toContain("E1412");
    expect(r.exitCode).not.toBe(0);
  });

  test("--format json and junit write the report: scores, failing cases, per-case tokens and cost", async () => {
    const json = join(dir, "report.json");
    const xml = join(dir, "report.xml");
    const r = await runLumaAsync(["eval", dir, "--replay", join(dir, "cassette.jsonl"), "--format", "json", json, "--format", "junit", xml]);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(readFileSync(json, "utf8"));
    expect(report.passed).toBe(true);
    const [e] = report.evals;
    expect(e.name).toBe("triage routes");
    expect(e.variant).toBeNull();
    expect(e.scores.route.mean).toBeCloseTo(2 / 3);
    expect(e.scores.route.failing).toEqual([{ line: 2, id: "login" }]);
    expect(e.cases.map((c: { line: number; id: string }) => [c.line, c.id])).toEqual([[1, "refund"], [2, "login"], [3, "pricing"]]);
    expect(e.cases[0].scores).toEqual({ route: true, polite: 0.9 });
    expect(e.cases[0].tokens_in).toBeGreaterThan(0);
    expect(e.cases[0].cost_usd).toBeGreaterThan(0);
    const junit = readFileSync(xml, "utf8");
    expect(junit).toContain('<testcase classname="');
    expect(junit).toMatch(/name="line 2 \(id login\)"[^>]*>\s*<failure message="score route: false">/);
    expect(junit).toMatch(/name="line 1 \(id refund\)"[^>]*\/>/);
  });

  test("--model Triage=Careful runs every case again with the agent on the other model, side by side", async () => {
    const other = project();
    fake.script([...SCRIPT, routed("billing", "We will refund the second charge today."), rated(1), routed("support", "Support will reset your login."), rated(0.8), routed("sales", "Sales will send team pricing."), rated(0.7)]);
    const r = await live(other, ["--model", "Triage=Careful"]);
    expect(r.stdout).toContain('eval "triage routes" [Triage=Careful]');
    expect(r.stdout).toContain("side by side: as written | Triage=Careful");
    expect(r.stdout).toContain("triage routes › route: 0.67 | 1.00");
    expect(r.stdout).toMatch(/triage routes › cost: \$0\.\d{4} \| \$0\.\d{4}/);
    // Triage's asks went to the other model's name; Grader's stayed on Fast.
    const models = fake.requests.map((q) => q.body.model);
    expect(models.slice(6)).toEqual(["gpt-5.4", "gpt-5.4-mini", "gpt-5.4", "gpt-5.4-mini", "gpt-5.4", "gpt-5.4-mini"]);
    expect(r.exitCode).toBe(0);
  });

  test("--model naming no model of the program is E1413", async () => {
    const r = await runLumaAsync(["eval", dir, "--replay", join(dir, "cassette.jsonl"), "--model", "Triage=Nope"]);
    expect(r.stderr).toContain("--model Triage=Nope: the program declares no model 'Nope'");
    expect(r.exitCode).not.toBe(0);
  });
});

describe("luma eval: what is an error, and where it points", () => {
  const evalFile = (dir: string, body: string, dataset = "cases.jsonl") =>
    writeFileSync(join(dir, "x.eval.luma"), `eval "e" over "${dataset}" {\n${body}\n}\n`);

  test("a missing dataset is E1410, naming the eval, its line and the path looked at", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-eval-"));
    evalFile(dir, '  score "s" true', "nope.jsonl");
    const r = runLuma(["eval", dir]);
    expect(r.stderr).toContain(`${dir}/x.eval.luma:1:15: the dataset "nope.jsonl" of eval "e" cannot be read (no such file; looked at ${dir}/nope.jsonl)`);
    expect(r.stderr).toContain("E1410");
    expect(r.exitCode).not.toBe(0);
  });

  test("a line that is not JSON is E1411, naming the file and the line", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-eval-"));
    evalFile(dir, '  score "s" true');
    writeFileSync(join(dir, "cases.jsonl"), '{"a": 1}\n\n{a: 2}\n');
    const r = runLuma(["eval", dir]);
    expect(r.stderr).toContain(`${dir}/cases.jsonl:3: line 3 of the dataset "cases.jsonl" (eval "e") is not JSON`);
    expect(r.stderr).toContain("E1411");
    expect(r.exitCode).not.toBe(0);
  });

  test("a score outside [0, 1] at run time fails its case (exit 1), naming the score and the value; other cases still run", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-eval-"));
    evalFile(dir, '  print("v is {case.v}")\n  score "ratio" case.v');
    writeFileSync(join(dir, "cases.jsonl"), '{"v": 0.5}\n{"id": "big", "v": 5}\n');
    const r = runLuma(["eval", dir]);
    // What the failed case printed is shown under it.
    expect(r.stdout).toContain("      output:\n        v is 5\n");
    expect(r.stdout).not.toContain("v is 0.5");
    expect(r.stdout).toContain('score "ratio" must be a bool or a number in [0, 1], not 5');
    expect(r.stdout).toMatch(/ERR {2}line 2 \(id big\)/);
    expect(r.stdout).toContain("score ratio: mean 0.25  failing: line 2 (id big)");
    expect(r.stdout).toContain("2 cases, 1 errored");
    expect(r.exitCode).toBe(1);
  });

  test("no eval under the path is E1414 (exit 1)", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-eval-"));
    const r = runLuma(["eval", dir]);
    expect(r.stderr).toContain("no eval found in");
    expect(r.stderr).toContain("E1414");
    expect(r.exitCode).toBe(1);
  });

  test("the checker: eval outside *.eval.luma (E1401), score outside an eval (E1402), a string score (E1404), case assigned (E1405), a literal out of range (E1406)", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-eval-"));
    writeFileSync(join(dir, "plain.luma"), 'eval "e" over "c.jsonl" {\n  score "s" true\n}\nscore "t" true\n');
    const plain = runLuma(["check", join(dir, "plain.luma")]);
    expect(plain.stderr).toContain("plain.luma:1:6: error[E1401]: An 'eval' block belongs in a file named *.eval.luma");
    expect(plain.stderr).toContain("plain.luma:4:1: error[E1402]: 'score' records a score of an eval's case: it may stand only in an 'eval' block.");
    evalFile(dir, '  case = 1\n  score "a" "yes"\n  score "b" 5');
    const bad = runLuma(["check", join(dir, "x.eval.luma")]);
    expect(bad.stderr).toContain("x.eval.luma:2:3: error[E1405]");
    expect(bad.stderr).toContain("x.eval.luma:3:13: error[E1404]: Score 'a' must be a bool or a number in [0, 1], not \"yes\".");
    expect(bad.stderr).toContain("x.eval.luma:4:13: error[E1406]: Score 'b' must be in [0, 1], not 5.");
  });
});

describe("examples/120_eval runs offline from its committed cassette", () => {
  test("luma eval examples/120_eval --replay …: the example's scores", () => {
    const cassette = join(EXAMPLE, "triage.cassette.jsonl");
    expect(existsSync(cassette)).toBe(true);
    const r = runLuma(["eval", "examples/120_eval", "--replay", "examples/120_eval/triage.cassette.jsonl", "--min", "route=0.6"]);
    expect(r.stdout).toContain("score route: mean 0.67  failing: line 2 (id login)");
    expect(r.stdout).toContain("score polite: mean 0.77\n");
    expect(r.stdout).toContain("min route 0.6 (triage routes): mean 0.67 met");
    expect(r.exitCode).toBe(0);
  });

  test("…and with --model Triage=Careful, side by side, still offline", () => {
    const r = runLuma(["eval", "examples/120_eval", "--replay", "examples/120_eval/triage.cassette.jsonl", "--model", "Triage=Careful"]);
    expect(r.stdout).toContain("triage routes › route: 0.67 | 1.00");
    expect(r.stdout).toContain("triage routes › polite: 0.77 | 0.90");
    expect(r.exitCode).toBe(0);
  });
});

describe("luma eval runs cases concurrently, up to --concurrency", () => {
  test("8 cases against a provider answering in 300 ms: at once they take about one answer's time, one by one eight", async () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-eval-"));
    writeFileSync(
      join(dir, "echo.eval.luma"),
      `model M { provider: "openai", name: "gpt-5.4-mini" }\nagent Echo {\n  model: M\n  fn run(q: string) -> string { return ask q -> string }\n}\neval "echo" over "cases.jsonl" {\n  score "yes" Echo.run(case.q) == "yes"\n}\n`,
    );
    writeFileSync(join(dir, "cases.jsonl"), Array.from({ length: 8 }, (_, i) => JSON.stringify({ q: `question ${i}` })).join("\n") + "\n");
    const env = { ...KEY, LUMA_BASE_URL_M: fake.baseUrl("openai") };
    fake.latencyMs = 300;
    try {
      const timed = async (n: string) => {
        fake.script(Array.from({ length: 8 }, () => ({ json: { value: "yes" } })));
        const t0 = performance.now();
        const r = await runLumaAsync(["eval", dir, "--concurrency", n], env);
        expect(r.stdout).toContain("score yes: mean 1.00");
        return performance.now() - t0;
      };
      const together = await timed("8");
      const oneByOne = await timed("1");
      expect(oneByOne).toBeGreaterThan(8 * 300);
      expect(together).toBeLessThan(oneByOne / 2);
      console.log(`8 cases, 300 ms per answer: --concurrency 8 ${Math.round(together)} ms, --concurrency 1 ${Math.round(oneByOne)} ms`);
    } finally {
      fake.latencyMs = 0;
    }
  }, 60_000);
});

describe("luma eval with a journal: each case is a run of its own, named in the JSON report", () => {
  test("run_id per case, and `luma runs` lists the runs", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-eval-"));
    writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ journal: { backend: "sqlite", path: "journal.sqlite" } }));
    writeFileSync(join(dir, "x.eval.luma"), `eval "e" over "cases.jsonl" {\n  score "even" case.n % 2 == 0\n}\n`);
    writeFileSync(join(dir, "cases.jsonl"), '{"n": 1}\n{"n": 2}\n');
    const r = runLuma(["eval", dir, "--config", join(dir, "luma.config.json"), "--format", "json", join(dir, "r.json")]);
    expect(r.exitCode).toBe(0);
    const ids = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")).evals[0].cases.map((c: { run_id: string | null }) => c.run_id);
    expect(ids.every((id: unknown) => typeof id === "string")).toBe(true);
    expect(new Set(ids).size).toBe(2);
    const runs = runLuma(["runs", "--journal", join(dir, "journal.sqlite"), "--format", "json"]);
    for (const id of ids) expect(runs.stdout).toContain(id);
  });
});

describe("luma eval and Ctrl-C", () => {
  test("SIGINT stops the cases in flight gracefully, starts no other, and exits 130", async () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-eval-"));
    writeFileSync(
      join(dir, "slow.eval.luma"),
      `model M { provider: "openai", name: "gpt-5.4-mini" }\nagent Echo {\n  model: M\n  fn run(q: string) -> string { return ask q -> string }\n}\neval "slow" over "cases.jsonl" {\n  score "yes" Echo.run(case.q) == "yes"\n}\n`,
    );
    writeFileSync(join(dir, "cases.jsonl"), Array.from({ length: 4 }, (_, i) => JSON.stringify({ q: `q${i}` })).join("\n") + "\n");
    fake.latencyMs = 20_000;
    fake.script(Array.from({ length: 4 }, () => ({ json: { value: "yes" } })));
    try {
      const proc = Bun.spawn([ensureBinary(), "eval", dir, "--concurrency", "2"], {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...KEY, LUMA_BASE_URL_M: fake.baseUrl("openai") },
        stdout: "pipe",
        stderr: "pipe",
      });
      const t0 = performance.now();
      while (fake.requests.length < 2 && performance.now() - t0 < 10_000) await Bun.sleep(20);
      proc.kill("SIGINT");
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      expect(code).toBe(130);
      expect(stderr).toContain("Interrupted by SIGINT");
      expect(performance.now() - t0).toBeLessThan(15_000);
      // The two cases not started yet never asked.
      expect(fake.requests.length).toBe(2);
    } finally {
      fake.latencyMs = 0;
    }
  }, 60_000);
});
