/**
 * Issue #27 §2 — a handoff in a journaled run: the transfer is a journal step
 * (`…req1.handoff`, kind handoff), and a run stopped after it (a journaled wait for an
 * approval of the agent handed to, exit 75) resumes with that agent — the answered
 * requests of both agents are not sent again, and the side effect runs once.
 */
import { expect, test } from "bun:test";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { JournalProject } from "../journal/journal-project";

const J = ["--journal", "runs.sqlite"];

test("a journaled handoff: exit 75 inside the agent handed to, approve, resume with that agent without re-asking", async () => {
  const fake = await startFakeProvider();
  try {
    const p = new JournalProject(`
model M { provider: "openai"  name: "gpt-5.4-mini" }
model R { provider: "anthropic"  name: "claude-sonnet-4-5" }
schema Done { done: int }
schema Answer { total: int }
tool effect(n: int) -> Done {
  side_effects: "write"
}
agent Refunds {
  model: R
  system: "You run effects."
  tool_policy: "approval"
  tools: [effect]
}
agent Triage {
  model: M
  handoffs: [Refunds]
  fn run() -> Answer { ask "Hand n=3 to Refunds." -> Answer }
}
print(Triage.run().total)
`);
    fake.script([
      { toolCalls: [{ name: "transfer_to_Refunds", args: {} }] },
      { toolCalls: [{ name: "effect", args: { n: 3 } }] },
      { json: { total: 3 } },
    ]);
    const env = { OPENAI_API_KEY: "sk-test", ANTHROPIC_API_KEY: "sk-ant-test", LUMA_BASE_URL_M: fake.baseUrl("openai"), LUMA_BASE_URL_R: fake.baseUrl("anthropic") };
    const first = await p.runFlow("h1", J, env);
    expect(first.exitCode).toBe(75);
    expect(first.stderr).toContain("waiting for approval of tool 'effect' at step main/Triage.run#1/1.req2.call1");
    expect(fake.requests.map((q) => q.family)).toEqual(["openai", "anthropic"]);
    expect((await p.run(["approve", "--run-id", "h1", ...J])).exitCode).toBe(0);
    const resumed = await p.runFlow("h1", J, env);
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("3\n");
    expect(p.lines("calls.log").map((c) => c.n)).toEqual([3]);
    // Only the last request was sent on resume, and to Refunds' model (anthropic), with its system.
    expect(fake.requests.map((q) => q.family)).toEqual(["openai", "anthropic", "anthropic"]);
    expect(JSON.stringify(fake.requests[2].body)).toContain("You run effects.");
    const shown = await p.run(["runs", "show", "h1", "--format", "json", ...J]);
    expect(shown.stderr).toBe("");
    const steps = JSON.parse(shown.stdout).steps.map((s: { step: string; kind: string }) => `${s.kind} ${s.step}`);
    expect(steps).toContain("handoff main/Triage.run#1/1.req1.handoff");
  } finally {
    fake.stop();
  }
}, 60_000);
