/**
 * Issue #27 §1 — an approval needed inside a sub-agent surfaces in the outer run as a direct
 * one does: in a journaled run without a terminal the run waits (exit 75) naming the
 * sub-agent's step; after `luma approve` the resumed run neither asks the outer model again
 * nor re-sends the sub-agent's finished requests, and the side effect runs once.
 */
import { expect, test } from "bun:test";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { JournalProject } from "../journal/journal-project";

const J = ["--journal", "runs.sqlite"];
const STEP = "main/Triage.run#1/1.req1.call1/Refunds.handle#1/1.req1.call1";

test("a journaled approval inside an agent called as a tool: exit 75, approve, resume without re-asking", async () => {
  const fake = await startFakeProvider();
  try {
    const p = new JournalProject(`
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Done { done: int }
schema Answer { total: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
agent Refunds {
  model: M
  tool_policy: "approval"
  tools: [effect]
  /// Runs the effect n times.
  fn handle(n: int) -> Answer { ask "Call effect with n={n}." -> Answer }
}
agent Triage {
  model: M
  tools: [Refunds.handle]
  fn run() -> Answer { ask "Hand n=3 to Refunds." -> Answer }
}
print(Triage.run().total)
`);
    fake.script([
      { toolCalls: [{ name: "Refunds_handle", args: { n: 3 } }] },
      { toolCalls: [{ name: "effect", args: { n: 3 } }] },
      { json: { total: 3 } },
      { json: { total: 3 } },
    ]);
    const env = { OPENAI_API_KEY: "sk-test", LUMA_BASE_URL_M: fake.baseUrl("openai") };
    const first = await p.runFlow("s1", J, env);
    expect(first.exitCode).toBe(75);
    expect(first.stderr).toContain(`waiting for approval of tool 'effect' at step ${STEP}`);
    expect(fake.requests.length).toBe(2);
    expect(p.lines("calls.log")).toEqual([]);
    expect((await p.run(["approve", "--run-id", "s1", ...J])).exitCode).toBe(0);
    const resumed = await p.runFlow("s1", J, env);
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("3\n");
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([3]);
    // The two answered requests (the outer model's, the sub-agent's first) were not sent again.
    expect(fake.requests.length).toBe(4);
  } finally {
    fake.stop();
  }
}, 60_000);
