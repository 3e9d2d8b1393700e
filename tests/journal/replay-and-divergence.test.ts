/**
 * Durable runs (issue #15) §1, §2, §5: what a resumed run takes from the journal and what
 * stops it. A finished step's recorded outcome — an error included — is returned again;
 * `now()` readings are journaled; a program that no longer makes the recorded call at a
 * step stops with an error naming the step; `luma runs show` prints what the trace saw;
 * an encrypted journal holds no output in clear.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { JournalProject } from "./journal-project";

const J = ["--journal", "runs.sqlite"];

const FLOW = (second: number) => `
schema Done { done: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
t = now()
print(t)
a = tool effect({ n: 1 })
b = tool effect({ n: ${second} })
print(a.done + b.done)
`;

describe("Durable runs (issue #15 §2): resume returns recorded results; divergence stops the run", () => {
  test("now() is journaled: a resumed run reads the recorded time, so it takes the same decisions", async () => {
    const p = new JournalProject(FLOW(2));
    const first = await p.runFlow("n1", J, { LUMA_TEST_CRASH_AT: "journal-after-finish:2" });
    expect(first.signal).toBe("SIGKILL");
    expect(first.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\n$/);
    await Bun.sleep(5);
    const resumed = await p.runFlow("n1", J);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stdout).toBe(first.stdout + "3\n");
    const again = await p.runFlow("n1", J);
    expect(again.stdout).toBe(resumed.stdout);
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([1, 2]);
  });

  test("a program that now makes another call at a recorded step stops with an error naming the step (exit 1), running nothing more", async () => {
    const p = new JournalProject(FLOW(2));
    expect((await p.runFlow("v1", J)).exitCode).toBe(0);
    p.write("flow.luma", FLOW(20));
    const r = await p.runFlow("v1", J);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      "Error: [RUNTIME_ERROR] Run v1 diverged from its journal at step main/2: the journal holds tool 'effect' with another input, the program now makes tool 'effect' with this input. Start a new run (another --run-id) for the changed program.\n" +
        "  --> flow.luma:9:5\n  9 | b = tool effect({ n: 20 })\n    |     ^^^^^^^^^^^^^^^^^^^^^^\n",
    );
    expect(p.lines("calls.log").length).toBe(2);
  });

  test("a divergence cannot be caught by the program's own try", async () => {
    const p = new JournalProject(FLOW(2));
    expect((await p.runFlow("v2", J)).exitCode).toBe(0);
    p.write("flow.luma", FLOW(2).replace("b = tool effect({ n: 2 })", `try {\n  b = tool effect({ n: 5 })\n} catch err {\n  b = { done: 0 }\n}`));
    const r = await p.runFlow("v2", J);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("diverged from its journal at step main/2");
  });

  test("a recorded failure is replayed as the same error, caught the same way, without running the handler", async () => {
    const p = new JournalProject(`
schema Done { done: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
bad: any = "not a number"
try {
  x = tool effect({ n: bad })
} catch err {
  print("caught", err.code)
}
y = tool effect({ n: 4 })
print("y", y.done)
`);
    const first = await p.runFlow("e1", J, { LUMA_TEST_CRASH_AT: "journal-after-begin:1" });
    expect(first.signal).toBe("SIGKILL");
    expect(first.stdout).toBe("caught TOOL_INPUT_INVALID\n");
    const r = await p.runFlow("e1", J);
    expect(r.stdout).toBe("caught TOOL_INPUT_INVALID\ny 4\n");
    const shown = JSON.parse((await p.run(["runs", "show", "e1", ...J, "--format", "json"])).stdout);
    expect(shown.steps.map((s: { step: string; outcome: string; code?: string }) => [s.step, s.outcome, s.code ?? null])).toEqual([
      ["main/1", "error", "TOOL_INPUT_INVALID"],
      ["main/2", "ok", null],
    ]);
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([4]);
  });
});

describe("Durable runs (issue #15 §5): trace and journal agree", () => {
  test("luma runs show ID: a table of steps (tool, outcome, duration, attempts); --format json lists what --trace reported", async () => {
    const p = new JournalProject(FLOW(2));
    const r = await p.runFlow("s1", [...J, "--trace", "trace.jsonl"]);
    expect(r.exitCode).toBe(0);
    const table = await p.run(["runs", "show", "s1", ...J]);
    expect(table.exitCode).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("run s1 (flow.luma): finished");
    expect(lines[1]).toMatch(/^STEP\s+KIND\s+NAME\s+OUTCOME\s+ATTEMPTS\s+DURATION$/);
    expect(lines.slice(2).map((l) => l.split(/\s{2,}/).slice(0, 5))).toEqual([
      ["now#1", "now", "now", "ok", "1"],
      ["main/1", "tool", "effect", "ok", "1"],
      ["main/2", "tool", "effect", "ok", "1"],
    ]);
    const trace = readFileSync(p.path("trace.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.event === "tool.call");
    const steps = JSON.parse((await p.run(["runs", "show", "s1", ...J, "--format", "json"])).stdout).steps.filter((s: { kind: string }) => s.kind === "tool");
    expect(steps.map((s: { name: string; outcome: string }) => [s.name, s.outcome])).toEqual(trace.map((e) => [e.tool, e.outcome]));
    expect(trace.map((e) => [e.step, e.journal_replay])).toEqual([
      ["main/1", false],
      ["main/2", false],
    ]);
    // Run again: the trace names the same steps, each answered from the journal.
    await p.runFlow("s1", [...J, "--trace", "trace2.jsonl"]);
    const replayed = readFileSync(p.path("trace2.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.event === "tool.call");
    expect(replayed.map((e) => [e.step, e.journal_replay, e.outcome])).toEqual([
      ["main/1", true, "ok"],
      ["main/2", true, "ok"],
    ]);
    expect((await p.run(["runs", "show", "nope", ...J])).stderr).toBe("Error: [RUNTIME_ERROR] Journal runs.sqlite has no run nope.\n");
  });
});

describe("Durable runs (issue #15 §1): an encrypted journal", () => {
  const SECRET_FLOW = `
schema Done { done: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
a = tool effect({ n: 424242 })
print(a.done)
`;
  test("outputs are sealed with LUMA_IDEMPOTENCY_KEY: the file holds no result in clear; a resume reads them; a wrong key stops at startup (exit 2)", async () => {
    const p = new JournalProject(SECRET_FLOW, { journal: { backend: "sqlite", path: "runs.sqlite", encryption: "aes-256-gcm" } });
    const key = { LUMA_IDEMPOTENCY_KEY: "correct horse battery staple" };
    expect((await p.runFlow("k1", [], key)).stdout).toBe("424242\n");
    const raw = readFileSync(p.path("runs.sqlite")).toString("latin1") + readFileSync(p.path("runs.sqlite-wal"), { flag: "a+" }).toString("latin1");
    expect(raw).not.toContain("424242");
    expect((await p.runFlow("k1", [], key)).stdout).toBe("424242\n");
    expect(p.lines("calls.log").length).toBe(1);
    const wrong = await p.runFlow("k1", [], { LUMA_IDEMPOTENCY_KEY: "wrong" });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("LUMA_IDEMPOTENCY_KEY does not match");
    const none = await p.runFlow("k1", []);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("needs the passphrase in LUMA_IDEMPOTENCY_KEY");
  });
});

describe("Durable runs (issue #15 §2): an ask's provider requests are steps too", () => {
  test("a changed prompt at a recorded request is a divergence naming the request's step; the provider is not asked", async () => {
    const { startFakeProvider } = await import("../support/fake-provider/fake-provider");
    const fake = await startFakeProvider();
    try {
      const program = (prompt: string) => `
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Verdict { ok: bool }
agent Judge {
  model: M
  fn check() -> Verdict {
    ask "${prompt}" -> Verdict
  }
}
print(Judge.check().ok)
`;
      const p = new JournalProject(program("Is it fine?"));
      fake.script([{ json: { ok: true } }]);
      const env = { OPENAI_API_KEY: "sk-test", LUMA_BASE_URL_M: fake.baseUrl("openai") };
      expect((await p.runFlow("q1", J, env)).stdout).toBe("true\n");
      expect((await p.runFlow("q1", J, env)).stdout).toBe("true\n");
      expect(fake.requests.length).toBe(1);
      p.write("flow.luma", program("Is it really fine?"));
      const r = await p.runFlow("q1", J, env);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain("Run q1 diverged from its journal at step main/Judge.check#1/1.req1: the journal holds a request to model 'M' with another input");
      expect(fake.requests.length).toBe(1);
    } finally {
      fake.stop();
    }
  });
});
