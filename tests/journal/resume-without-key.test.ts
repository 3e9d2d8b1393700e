/**
 * Durable runs (issue #15): a request the journal answers is not sent, so it needs no API
 * key and no endpoint. A journaled run reports a missing key (or base_url / Azure endpoint)
 * only when a request the journal does not answer is about to be sent — with the message,
 * code and location a run without a journal reports up front — and records nothing for it,
 * so a later resume with the key goes on from there. Without a journal nothing changes: the
 * ask fails before it does anything. Real `dist/luma` processes, a real SQLite journal, a
 * fake provider that counts the requests it gets.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { ASK_CALLING_TOOLS, FIVE_EFFECTS_TWO_ASKS, JournalProject } from "./journal-project";

const JOURNAL = { journal: { backend: "sqlite", path: "runs.sqlite" } };
const ANSWERS = [{ json: { ok: true, note: "first" } }, { json: { ok: true, note: "second" } }];
const EXPECTED_OUTPUT = "a 1\nv1 first\nc+d 7\nv2 second\ne 5\n";
const MISSING_KEY = `Model 'M' (provider "openai") needs an API key: environment variable OPENAI_API_KEY is not set at flow.luma:`;

/** Model M of `provider`, the agent Judge whose `check(n)` asks one question at line 7, then `main`. */
const judge = (provider: string, main: string) => `
model M { provider: "${provider}"  name: "gpt-5.4-mini" }
schema Verdict { ok: bool }
agent Judge {
  model: M
  fn check(n: int) -> Verdict {
    ask "Is {n} fine?" -> Verdict
  }
}
${main}
`;

const fakes: FakeProvider[] = [];
afterAll(() => fakes.forEach((f) => f.stop()));

const withFake = async (turns = ANSWERS) => {
  const fake = await startFakeProvider();
  fakes.push(fake);
  fake.script(turns);
  return { fake, env: { OPENAI_API_KEY: "sk-test-resume-key", LUMA_BASE_URL_M: fake.baseUrl("openai") } };
};

const stepsOf = async (p: JournalProject, runId: string): Promise<string[]> => {
  const shown = await p.run(["runs", "show", runId, "--format", "json"]);
  expect(shown.exitCode).toBe(0);
  return JSON.parse(shown.stdout).steps.map((s: { step: string }) => s.step);
};

describe("Durable runs (issue #15 §2) resume: a request the journal answers needs no API key", () => {
  test("a finished run resumed with no key and no endpoint prints the same output; nothing is sent", async () => {
    const p = new JournalProject(FIVE_EFFECTS_TWO_ASKS, JOURNAL);
    const { fake, env } = await withFake();
    const first = await p.runFlow("done-1", [], env);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe(EXPECTED_OUTPUT);
    // No OPENAI_API_KEY, no LUMA_BASE_URL_M: only the journal can answer the two asks.
    const again = await p.runFlow("done-1", [], {});
    expect({ exit: again.exitCode, stdout: again.stdout, stderr: again.stderr }).toEqual({ exit: 0, stdout: EXPECTED_OUTPUT, stderr: "" });
    expect(fake.requests.length).toBe(2);
    expect(p.lines("calls.log").length).toBe(5);
  });

  test("a resume that still has to send a request gets the missing-key error there (exit 1), recorded nowhere; with the key it goes on", async () => {
    const p = new JournalProject(FIVE_EFFECTS_TWO_ASKS, JOURNAL);
    const { fake, env } = await withFake();
    // Killed right after effect 4's finish receipt (step 5): the first ask is answered, the second is not.
    const crashed = await p.runFlow("part-1", [], { ...env, LUMA_TEST_CRASH_AT: "journal-after-finish:5" });
    expect(crashed.signal).toBe("SIGKILL");
    expect(fake.requests.length).toBe(1);

    const keyless = await p.runFlow("part-1", [], {});
    expect(keyless.exitCode).toBe(1);
    expect(keyless.stdout).toBe("a 1\nv1 first\nc+d 7\n");
    expect(keyless.stderr).toContain(`Error: [PROVIDER_ERROR] ${MISSING_KEY}`);
    expect(fake.requests.length).toBe(1);
    // The request that could not be sent left no receipt: it is not a recorded failure.
    expect(await stepsOf(p, "part-1")).toEqual(["main/1", "main/2", "main/Judge.check#3/1.req1", "main/4", "main/5"]);

    const resumed = await p.runFlow("part-1", [], env);
    expect({ exit: resumed.exitCode, stdout: resumed.stdout, stderr: resumed.stderr }).toEqual({ exit: 0, stdout: EXPECTED_OUTPUT, stderr: "" });
    expect(fake.requests.length).toBe(2);
    expect(p.lines("effects.log").map((e) => e.n)).toEqual([1, 2, 3, 4, 5]);
    // The key that sent the requests is nowhere in the journal (digests cover the request, not its headers).
    for (const f of ["runs.sqlite", "runs.sqlite-wal"]) if (existsSync(p.path(f))) expect(readFileSync(p.path(f)).indexOf(env.OPENAI_API_KEY)).toBe(-1);
  });

  test("the missing-key error of a journaled run is the one a run without a journal prints: same message, code, location, exit, usage and trace", async () => {
    const program = judge("openai", `print("before")\nprint(Judge.check(1).ok)`);
    // --usage and --trace too: an ask that sent nothing counts no request and traces no ask, as before.
    const observe = ["--usage", "--trace", "trace.jsonl"];
    const bare = new JournalProject(program);
    const plain = await bare.run(["flow.luma", ...observe]);
    const p = new JournalProject(program, JOURNAL);
    const journaled = await p.runFlow("fresh-1", observe, {});
    expect(readFileSync(p.path("trace.jsonl"), "utf8")).toBe(readFileSync(bare.path("trace.jsonl"), "utf8"));
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toContain(`Error: [PROVIDER_ERROR] ${MISSING_KEY}7:5`);
    expect({ exit: journaled.exitCode, stdout: journaled.stdout, stderr: journaled.stderr }).toEqual({
      exit: plain.exitCode,
      stdout: plain.stdout,
      stderr: plain.stderr,
    });
    expect(await stepsOf(p, "fresh-1")).toEqual([]);
  });

  test("a missing Azure endpoint is deferred the same way: none needed to resume, its error when a request must be sent", async () => {
    const program = judge("azure", `print(Judge.check(1).ok)\nprint(Judge.check(2).ok)`);
    const p = new JournalProject(program, JOURNAL);
    const fake = await startFakeProvider();
    fakes.push(fake);
    fake.script([{ json: { ok: true } }, { json: { ok: false } }]);
    const env = { AZURE_OPENAI_API_KEY: "azure-test-key", AZURE_OPENAI_ENDPOINT: fake.url };
    // Killed after the first ask's finish receipt: the second ask has no receipt yet.
    const crashed = await p.runFlow("az-1", [], { ...env, LUMA_TEST_CRASH_AT: "journal-after-finish:1" });
    expect(crashed.signal).toBe("SIGKILL");
    const keyless = await p.runFlow("az-1", [], {});
    expect(keyless.exitCode).toBe(1);
    expect(keyless.stdout).toBe("true\n");
    expect(keyless.stderr).toContain(`Model 'M' (provider "azure") needs a base_url or the environment variable AZURE_OPENAI_ENDPOINT at flow.luma:7:5`);
    const resumed = await p.runFlow("az-1", [], env);
    expect({ exit: resumed.exitCode, stdout: resumed.stdout, stderr: resumed.stderr }).toEqual({ exit: 0, stdout: "true\nfalse\n", stderr: "" });
    const again = await p.runFlow("az-1", [], {});
    expect({ exit: again.exitCode, stdout: again.stdout, stderr: again.stderr }).toEqual({ exit: 0, stdout: "true\nfalse\n", stderr: "" });
    expect(fake.requests.length).toBe(2);
  });

  test("a changed prompt at a recorded request is still a divergence when the key is unset (the journal is read first)", async () => {
    const p = new JournalProject(FIVE_EFFECTS_TWO_ASKS, JOURNAL);
    const { env } = await withFake();
    expect((await p.runFlow("div-1", [], env)).exitCode).toBe(0);
    p.write("flow.luma", FIVE_EFFECTS_TWO_ASKS.replace("Is {n} fine?", "Is {n} really fine?"));
    const r = await p.runFlow("div-1", [], {});
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("Run div-1 diverged from its journal at step main/Judge.check#3/1.req1");
    expect(r.stderr).not.toContain("needs an API key");
  });
});

describe("Durable runs (issue #15 §2): without a journal a missing key fails up front, as before", () => {
  test("no journal, no key: the ask fails before its model's tools run and before any request", async () => {
    const p = new JournalProject(ASK_CALLING_TOOLS);
    const fake = await startFakeProvider();
    fakes.push(fake);
    fake.script([{ toolCalls: [{ name: "effect", args: { n: 1 } }] }, { json: { total: 1 } }]);
    const r = await p.run(["flow.luma"], { LUMA_BASE_URL_M: fake.baseUrl("openai") });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`Error: [PROVIDER_ERROR] Model 'M' (provider "openai") needs an API key: environment variable OPENAI_API_KEY is not set at flow.luma:12:5`);
    expect(fake.requests.length).toBe(0);
    expect(p.lines("calls.log")).toEqual([]);
  });
});
