/**
 * Lazy tools in a durable run (issue #25 §3, docs/language/tools.md "Lazy tools"): a search is
 * not a journal step — a resumed run re-answers the searches of its replayed model answers,
 * and because the ranking is deterministic it declares the same tools, so the journaled
 * requests' digests match and nothing is sent or run twice. Real processes, a real SQLite file.
 */
import { afterAll, expect, test } from "bun:test";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";
import { JournalProject } from "../journal/journal-project";

const LAZY_EFFECT = `
model M { provider: "openai"  name: "gpt-5.4-mini" }
schema Done { done: int }
schema Answer { total: int }
tool effect(n: int) -> Done {
  side_effects: "write"
  description: "Records one effect, numbered n"
  lazy: true
}
agent Worker {
  model: M
  tools: [effect]
  tool_policy: "allow"
  fn run() -> Answer {
    ask "Record effect 1, then answer the total." -> Answer
  }
}
print("total", Worker.run().total)
`;

const fakes: FakeProvider[] = [];
afterAll(() => fakes.forEach((f) => f.stop()));

test("killed after the found lazy tool ran, the resumed run replays the search, sends only the last request, runs nothing twice", async () => {
  const fake = await startFakeProvider();
  fakes.push(fake);
  fake.script([
    { toolCalls: [{ name: "search_tools", args: { query: "record an effect" } }] },
    { toolCalls: [{ name: "effect", args: { n: 1 } }] },
    { json: { total: 1 } },
  ]);
  const env = { OPENAI_API_KEY: "sk-test-journal", LUMA_BASE_URL_M: fake.baseUrl("openai") };
  const p = new JournalProject(LAZY_EFFECT, { journal: { backend: "sqlite", path: "runs.sqlite" } });

  // Finish receipts: req1 (the search call), req2 (the effect call), req2.call1 (effect ran) → killed.
  const crashed = await p.runFlow("lazy-1", [], { ...env, LUMA_TEST_CRASH_AT: "journal-after-finish:3" });
  expect(crashed.exitCode).not.toBe(0);
  expect(fake.requests.length).toBe(2);
  expect(p.lines("effects.log")).toEqual([{ n: 1, key: expect.any(String) }]);

  const resumed = await p.runFlow("lazy-1", [], env);
  expect(resumed.stderr).toBe("");
  expect(resumed.exitCode).toBe(0);
  expect(resumed.stdout).toBe("total 1\n");
  // Only the last request was sent; it declares the tool the replayed search found.
  expect(fake.requests.length).toBe(3);
  expect(fake.requests[2].body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["effect"]);
  expect(p.lines("calls.log")).toHaveLength(1);

  const shown = await p.run(["runs", "show", "lazy-1", "--format", "json"]);
  const steps = JSON.parse(shown.stdout).steps.map((s: { step: string }) => s.step);
  expect(steps).toEqual(["main/Worker.run#1/1.req1", "main/Worker.run#1/1.req2", "main/Worker.run#1/1.req2.call1", "main/Worker.run#1/1.req3"]);
}, 60_000);
