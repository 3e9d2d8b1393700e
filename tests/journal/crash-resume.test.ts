/**
 * Durable runs (issue #15), reliability: a program with five side-effecting tool calls and
 * two `ask`s (fake provider) is killed with SIGKILL at every step boundary in turn — right
 * after a step's begin receipt is on disk (before it ran), right after its finish receipt
 * is on disk (before its result got back), and inside each handler right after its side
 * effect (the window the handler's ctx closes) — then resumed with the same --run-id.
 *
 * Each time: every side effect happened exactly once, the resumed run's output equals an
 * uninterrupted run's, and the provider got exactly two requests in all (a finished `ask`'s
 * request is never sent again). Real processes, a real SQLite file.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { ASK_CALLING_TOOLS, FIVE_EFFECTS_TWO_ASKS, JournalProject } from "./journal-project";

const ANSWERS = [{ json: { ok: true, note: "first" } }, { json: { ok: true, note: "second" } }];
const fakes: FakeProvider[] = [];
afterAll(() => fakes.forEach((f) => f.stop()));

const withFake = async () => {
  const fake = await startFakeProvider();
  fakes.push(fake);
  fake.script(ANSWERS);
  return { fake, env: { OPENAI_API_KEY: "sk-test-journal", LUMA_BASE_URL_M: fake.baseUrl("openai") } };
};

const EXPECTED_OUTPUT = "a 1\nv1 first\nc+d 7\nv2 second\ne 5\n";
const STEPS = ["main/1", "main/2", "main/Judge.check#3/1.req1", "main/4", "main/5", "main/Judge.check#6/1.req1", "main/7"];

interface Scenario {
  name: string;
  env: Record<string, string>;
}

const scenarios: Scenario[] = [
  ...STEPS.map((s, i) => ({ name: `after the begin receipt of step ${i + 1} (${s})`, env: { LUMA_TEST_CRASH_AT: `journal-after-begin:${i + 1}` } })),
  ...STEPS.map((s, i) => ({ name: `after the finish receipt of step ${i + 1} (${s})`, env: { LUMA_TEST_CRASH_AT: `journal-after-finish:${i + 1}` } })),
  ...[1, 2, 3, 4, 5].map((n) => ({ name: `inside tool call ${n}'s handler, after its side effect`, env: { LUMA_TEST_KILL_IN_HANDLER: String(n) } })),
];

describe("Durable runs (issue #15 §2) resume: kill -9 at every step boundary, then resume with the same --run-id", () => {
  test("an uninterrupted run: the output, the journal's steps and `run: <id>` on stderr when no --run-id is given", async () => {
    const p = new JournalProject(FIVE_EFFECTS_TWO_ASKS, { journal: { backend: "sqlite", path: "runs.sqlite" } });
    const { fake, env } = await withFake();
    const r = await p.run(["flow.luma"], env);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(EXPECTED_OUTPUT);
    expect(r.stderr).toMatch(/^run: r-[a-z0-9]+-[0-9a-f]{8}\n$/);
    expect(fake.requests.length).toBe(2);
    const runId = r.stderr.trim().slice("run: ".length);
    const shown = await p.run(["runs", "show", runId, "--format", "json"]);
    expect(shown.exitCode).toBe(0);
    const doc = JSON.parse(shown.stdout);
    expect(doc.status).toBe("finished");
    expect(doc.steps.map((s: { step: string }) => s.step)).toEqual(STEPS);
    expect(doc.steps.every((s: { outcome: string; attempts: number }) => s.outcome === "ok" && s.attempts === 1)).toBe(true);

    // "A run that already finished prints the same output again without executing anything" —
    // with no API key and no endpoint: nothing is sent, so neither is needed.
    const again = await p.runFlow(runId, [], {});
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe(EXPECTED_OUTPUT);
    expect(again.stderr).toBe("");
    expect(p.lines("calls.log").length).toBe(5);
    expect(fake.requests.length).toBe(2);
  });

  for (const sc of scenarios) {
    test.concurrent(`killed ${sc.name}: each side effect once, same output, no repeated provider request`, async () => {
      const p = new JournalProject(FIVE_EFFECTS_TWO_ASKS, { journal: { backend: "sqlite", path: "runs.sqlite" } });
      const { fake, env } = await withFake();
      const crashed = await p.runFlow("job-1", [], { ...env, ...sc.env });
      expect(crashed.signal).toBe("SIGKILL");
      expect(EXPECTED_OUTPUT.startsWith(crashed.stdout)).toBe(true);

      const resumed = await p.runFlow("job-1", [], env);
      expect(resumed.stderr).toBe("");
      expect(resumed.exitCode).toBe(0);
      expect(resumed.stdout).toBe(EXPECTED_OUTPUT);
      expect(p.lines("effects.log").map((e) => e.n)).toEqual([1, 2, 3, 4, 5]);
      expect(fake.requests.length).toBe(2);
      expect(fake.pending).toBe(0);

      // Only a kill inside a handler re-runs it (attempt 2, same idempotency key); receipts never do.
      const calls = p.lines("calls.log");
      const killedIn = Number(sc.env.LUMA_TEST_KILL_IN_HANDLER ?? 0);
      expect(calls.map((c) => c.n)).toEqual(killedIn ? [1, 2, 3, 4, 5].flatMap((n) => (n === killedIn ? [n, n] : [n])) : [1, 2, 3, 4, 5]);
      const beganBefore = sc.env.LUMA_TEST_CRASH_AT?.startsWith("journal-after-begin") ? Number(sc.env.LUMA_TEST_CRASH_AT.split(":")[1]) : 0;
      for (const c of calls) {
        const rerun = (killedIn === c.n && calls.filter((x) => x.n === c.n).indexOf(c) === 1) || STEPS[beganBefore - 1] === c.step;
        expect(c.attempt).toBe(rerun ? 2 : 1);
        expect(c.key).toBe(`job-1/${c.step}`);
      }
    }, 30_000);
  }
});

describe("Durable runs (issue #15 §2) resume: an `ask` whose model calls tools", () => {
  for (const point of ["journal-after-finish:2", "journal-after-begin:3", "journal-after-finish:3"]) {
    test.concurrent(`killed at ${point} (inside the tool round): the answered request is not re-sent, each native call's effect once`, async () => {
      const p = new JournalProject(ASK_CALLING_TOOLS, { journal: { backend: "sqlite", path: "runs.sqlite" } });
      const fake = await startFakeProvider();
      fakes.push(fake);
      fake.script([{ toolCalls: [{ name: "effect", args: { n: 1 } }, { name: "effect", args: { n: 2 } }] }, { json: { total: 3 } }]);
      const env = { OPENAI_API_KEY: "sk-test-journal", LUMA_BASE_URL_M: fake.baseUrl("openai") };
      const crashed = await p.runFlow("t-1", [], { ...env, LUMA_TEST_CRASH_AT: point });
      expect(crashed.signal).toBe("SIGKILL");
      const resumed = await p.runFlow("t-1", [], env);
      expect(resumed.stderr).toBe("");
      expect(resumed.stdout).toBe("total 3\n");
      expect(p.lines("effects.log").map((e) => e.n)).toEqual([1, 2]);
      expect(p.lines("effects.log").map((e) => e.key)).toEqual(["t-1/main/Worker.run#1/1.req1.call1", "t-1/main/Worker.run#1/1.req1.call2"]);
      expect(fake.requests.length).toBe(2);
    }, 30_000);
  }
});
