import { describe, expect, test } from "bun:test";
import { fakeProvider, program, runAsk } from "../ask/ask-harness";
import { startFakeProvider } from "../support/fake-provider/fake-provider";
import { runProgram } from "./provider-servers";

const ASK = `ask "x" -> Answer`;

describe("PROVIDERS §2 Azure — max_tokens or max_completion_tokens, as Azure documents", () => {
  const cases: [string, string, "max_tokens" | "max_completion_tokens"][] = [
    ['name: "gpt-4o"  deployment: "prod-4o"  api_version: "2024-10-21"', "gpt-4o on the GA 2024-10-21 API", "max_tokens"],
    ['name: "o3-mini"  deployment: "reasoner"  api_version: "2024-12-01-preview"', "a reasoning model on a dated API", "max_completion_tokens"],
    ['name: "gpt-5-mini"  deployment: "g5"  api_version: "2025-04-01-preview"', "gpt-5 on a dated API", "max_completion_tokens"],
    ['name: "gpt-4o"  deployment: "prod-4o"', "gpt-4o on the v1 API", "max_completion_tokens"],
  ];
  for (const [decl, what, field] of cases) {
    test(`${what}: ${field}`, async () => {
      const fake = await fakeProvider();
      fake.script([{ json: { summary: "x", score: 1 } }]);
      const source = program("azure", "", ASK, { modelExtra: "max_tokens: 77" }).replace(/name: "gpt-4o" {2}deployment: "prod-4o"/, decl);
      const r = await runAsk(fake, source, { kind: decl.includes("api_version") ? "azure-dated" : "azure" });
      expect(r.error).toBeUndefined();
      const body = fake.requests[0].body;
      expect(body[field]).toBe(77);
      expect(body[field === "max_tokens" ? "max_completion_tokens" : "max_tokens"]).toBeUndefined();
    });
  }

  test("through dist/luma: gpt-4o on 2024-10-21 gets max_tokens", async () => {
    const fake = await startFakeProvider();
    try {
      fake.script([{ json: { summary: "ok", score: 3 } }]);
      const r = await runProgram("azure-dated", fake.baseUrl("azure-dated"), { modelExtra: "max_tokens: 55" });
      expect(r.exitCode).toBe(0);
      expect(fake.requests[0].query["api-version"]).toBe("2024-10-21");
      expect(fake.requests[0].body.max_tokens).toBe(55);
      expect(fake.requests[0].body.max_completion_tokens).toBeUndefined();
    } finally {
      fake.stop();
    }
  });
});
