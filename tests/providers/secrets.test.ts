import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeProvider, program, runAsk } from "../ask/ask-harness";

const CANARY = "sk-canary-7Hq2-DO-NOT-LEAK-91xZ";
const VARS = { openai: "OPENAI_API_KEY", azure: "AZURE_OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY", gemini: "GEMINI_API_KEY" } as const;

/** Everything a run leaves behind: stdout, stderr, the error, every file in its directory (trace, cassette). */
const everything = (r: Awaited<ReturnType<typeof runAsk>>) =>
  [...r.out, ...r.err, r.error?.message ?? "", JSON.stringify(r.error?.details ?? null), ...readdirSync(r.dir).map((f) => readFileSync(join(r.dir, f), "utf8"))].join("\n");

describe("§14 API keys never appear in traces, errors, logs or cassettes (canary key)", () => {
  for (const [kind, variable] of Object.entries(VARS)) {
    test(`${kind}: a successful recorded run with tools`, async () => {
      const fake = await fakeProvider();
      fake.expectKey(CANARY);
      fake.script([{ toolCalls: [{ name: "calculate", args: { a: 1, b: 1, operation: "add" } }] }, { json: { words: 0, sum: 2 } }]);
      const r = await runAsk(fake, program(kind as any, "tools: [calculate]", `ask "x" -> FinalResult`), { kind: kind as any, env: { [variable]: CANARY }, record: "c.jsonl" });
      expect(r.error).toBeUndefined();
      expect(fake.requests.length).toBe(2); // the key was sent to the provider…
      expect(everything(r)).not.toContain(CANARY); // …and nowhere else
      expect(everything(r)).not.toContain(CANARY.slice(0, 12));
    });

    test(`${kind}: a provider that echoes the key back in its error`, async () => {
      const fake = await fakeProvider();
      fake.expectKey("the-right-key");
      fake.script([]);
      const r = await runAsk(fake, program(kind as any, "", `ask "x" -> Answer`), { kind: kind as any, env: { [variable]: CANARY }, record: "c.jsonl" });
      expect(r.error?.code).toBe("PROVIDER_ERROR");
      expect(r.error?.message).toContain("[redacted]");
      expect(everything(r)).not.toContain(CANARY);
    });
  }
});
