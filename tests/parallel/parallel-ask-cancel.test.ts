/**
 * Issue #27 §4 — an `ask` already waiting on its provider is cancelled when a `parallel`
 * sibling fails: the branch's signal reaches the provider request (fetch is aborted), so the
 * run goes on with the sibling's failure at once instead of waiting for the slow answer.
 * Through `dist/luma` against a fake provider that answers only after a long latency.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLumaAsync } from "../support/luma-binary";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";

const LATENCY_MS = 8000;
const dir = mkdtempSync(join(tmpdir(), "luma-parallel-ask-"));
writeFileSync(join(dir, "tools.ts"), `export const tools = { boom: async (input) => { await Bun.sleep(50); throw new Error("boom " + input.n); } };\n`);
writeFileSync(
  join(dir, "main.luma"),
  `model M { provider: "openai"  name: "gpt-5.4-mini" }
schema N { n: int }
tool boom(n: int) -> N {}
agent Slow {
  model: M
  fn answer(q: string) -> string { ask q -> string }
}
try {
  parallel {
    a = Slow.answer("take your time")
    b = tool boom({ n: 2 })
  }
} catch e {
  print("caught", e.code, e.message)
}
`,
);

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake?.stop());

test("the failing sibling aborts the ask's provider request: the run ends long before the provider would answer", async () => {
  fake.latencyMs = LATENCY_MS;
  fake.script([{ json: { value: "too late" } }]);
  const trace = join(dir, "trace.jsonl");
  const t0 = performance.now();
  const r = await runLumaAsync([join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), "--trace", trace], {
    OPENAI_API_KEY: "sk-test",
    LUMA_BASE_URL_M: fake.baseUrl("openai"),
  });
  const elapsed = performance.now() - t0;
  expect(r.stderr).toBe("");
  expect(r.stdout).toMatch(/^caught TOOL_HANDLER_ERROR boom 2/);
  expect(r.exitCode).toBe(0);
  // Without the signal the run would wait the whole latency for the ask's answer.
  expect(elapsed).toBeLessThan(LATENCY_MS / 2);
  expect(fake.requests.length).toBe(1);
  const events = readFileSync(trace, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const sent = events.filter((e) => e.event === "provider.request");
  // One try, aborted: never retried.
  expect(sent.map((e) => [e.attempt, e.outcome, e.status])).toEqual([[1, "error", null]]);
}, 60_000);
