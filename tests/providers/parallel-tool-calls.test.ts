import { describe, expect, test } from "bun:test";
import { fakeProvider, program, runAsk, type ProviderKind } from "../ask/ask-harness";

const ASK = `ask "Add 1 and 2." -> FinalResult`;

describe("PROVIDERS §1–2 — parallel_tool_calls: false when tools are strict (OpenAI function-calling guide)", () => {
  const cases: [ProviderKind, boolean][] = [
    ["openai", true],
    ["azure", true],
    ["azure-dated", true],
    ["openai-responses", true],
    ["openai-compatible", false],
  ];
  for (const [kind, sent] of cases) {
    test(`${kind}: ${sent ? "parallel_tool_calls: false on every request with strict tools" : "not sent (compatible servers differ on the field)"}`, async () => {
      const fake = await fakeProvider();
      fake.script([{ toolCalls: [{ name: "calculate", args: { a: 1, b: 2, operation: "add" } }] }, { json: { words: 0, sum: 3 } }]);
      const r = await runAsk(fake, program(kind, "tools: [calculate]", ASK), { kind });
      expect(r.error).toBeUndefined();
      for (const req of fake.requests) expect(req.body.parallel_tool_calls).toBe(sent ? false : undefined);
    });
  }

  test("no tools, no field", async () => {
    const fake = await fakeProvider();
    fake.script([{ json: { summary: "x", score: 1 } }]);
    await runAsk(fake, program("openai", "", `ask "x" -> Answer`));
    expect(fake.requests[0].body.parallel_tool_calls).toBeUndefined();
  });
});
