/**
 * Issue #27 §5 — budgets, through the real binary against the fake provider (two provider
 * families): `budget_tokens` and `budget_usd` bound one call into the agent, sub-agents
 * included; the response that crosses the budget is not used and the work stops with a
 * non-retryable BUDGET_EXCEEDED naming the key, the limit, the amount used and the agent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma, runLumaAsync } from "../support/luma-binary";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";

const LIMIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), "luma-budgets-"));
let n = 0;
function file(source: string): string {
  const path = join(dir, `p${++n}.luma`);
  writeFileSync(path, source);
  return path;
}
const TOOLS_MODULE = join(dir, "tools.ts");
writeFileSync(TOOLS_MODULE, `export const lumaTools = {\n  lookup: (i: { id: string }) => ({ id: i.id, status: "delivered" }),\n};\n`);
const MODELS = {
  openai: `model M { provider: "openai"  name: "gpt-5.4-mini"  price_in_per_mtok: 1000  price_out_per_mtok: 1000 }`,
  anthropic: `model M { provider: "anthropic"  name: "claude-sonnet-4-5"  price_in_per_mtok: 1000  price_out_per_mtok: 1000 }`,
} as const;
const KEYS = { openai: { OPENAI_API_KEY: "sk-test" }, anthropic: { ANTHROPIC_API_KEY: "sk-ant-test" } } as const;
const DECLS = `
schema Order { id: string  status: string }
tool lookup(id: string) -> Order { side_effects: "none" }
agent Helper {
  model: M
  tools: [lookup]
  fn run(text: string) -> string { ask text -> string }
}
`;

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake?.stop());

test("luma check: budget_tokens is an integer ≥ 1, budget_usd a number ≥ 0", () => {
  const r = runLuma(["check", file(`${MODELS.openai}${DECLS}\nagent A {\n  budget_tokens: 0\n  budget_usd: -1\n}\n`)]);
  expect(r.exitCode).toBe(2);
  expect(r.stdout + r.stderr).toContain("budget_tokens");
  expect(r.stdout + r.stderr).toContain("budget_usd");
});

for (const family of ["openai", "anthropic"] as const) {
  describe(`runs on ${family}`, () => {
    const env = () => ({ ...KEYS[family], LUMA_BASE_URL_M: fake.baseUrl(family) });
    const turns = () => [{ toolCalls: [{ name: "lookup", args: { id: "A-7" } }] }, { json: { value: "delivered" } }];

    test("without a budget the ask answers; a budget_tokens below two responses stops at the second", async () => {
      fake.script(turns());
      const free = await runLumaAsync([file(`${MODELS[family]}${DECLS}\nprint(Helper.run("where is A-7?"))\n`), "--tool-module", TOOLS_MODULE], env());
      expect(free.stdout).toBe("delivered\n");
      fake.script(turns());
      const source = `${MODELS[family]}${DECLS.replace("tools: [lookup]", "tools: [lookup]\n  budget_tokens: 120")}\ntry { print(Helper.run("where is A-7?")) } catch e { print("{e.code}: {e.message}") }\n`;
      const r = await runLumaAsync([file(source), "--tool-module", TOOLS_MODULE], env());
      expect(r.stdout).toMatch(/^BUDGET_EXCEEDED: Agent 'Helper' exceeded its budget_tokens of 120: \d+ tokens used/);
      expect(r.stdout).not.toContain("delivered");
      expect(fake.requests.length).toBe(2);
    }, LIMIT_MS);

    test("an outer agent's budget counts its sub-agent's responses; the error names the outer agent", async () => {
      fake.script([{ toolCalls: [{ name: "Helper_run", args: { text: "A-7" } }] }, ...turns(), { json: { value: "never" } }]);
      const source = `${MODELS[family]}${DECLS}
agent Front {
  model: M
  tools: [Helper.run]
  budget_tokens: 200
  fn run(text: string) -> string { ask text -> string }
}
print(Front.run("where is A-7?"))
`;
      const r = await runLumaAsync([file(source), "--tool-module", TOOLS_MODULE], env());
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/\[BUDGET_EXCEEDED\] Agent 'Front' exceeded its budget_tokens of 200: \d+ tokens used/);
      expect(fake.requests.length).toBe(3);
    }, LIMIT_MS);

    test("budget_usd counts the models' prices", async () => {
      fake.script(turns());
      const source = `${MODELS[family]}${DECLS.replace("tools: [lookup]", "tools: [lookup]\n  budget_usd: 0.05")}\nprint(Helper.run("where is A-7?"))\n`;
      const r = await runLumaAsync([file(source), "--tool-module", TOOLS_MODULE], env());
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/\[BUDGET_EXCEEDED\] Agent 'Helper' exceeded its budget_usd of 0.05: 0\.\d+ USD used/);
    }, LIMIT_MS);
  });
}
