/**
 * Issue #27 §3 — the model hears refusals, through the real binary on two provider families:
 * with `on_denied: "tell_model"` a native call refused by policy (here deny_write) comes back to the model as a tool error result with the refusal's code and
 * message, and the `ask` goes on; with the default (`"fail"`) the refusal ends the ask.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma, runLumaAsync } from "../support/luma-binary";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";

const LIMIT_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), "luma-on-denied-"));
let n = 0;
function file(source: string): string {
  const path = join(dir, `p${++n}.luma`);
  writeFileSync(path, source);
  return path;
}
const TOOLS_MODULE = join(dir, "refund-tools.ts");
writeFileSync(TOOLS_MODULE, `export const lumaTools = {\n  issue_refund: (i: { id: string }) => ({ id: i.id, refunded: 25 }),\n};\n`);
const MODELS = {
  openai: `model M { provider: "openai"  name: "gpt-5.4-mini" }`,
  gemini: `model M { provider: "gemini"  name: "gemini-3-flash" }`,
} as const;
const KEYS = { openai: { OPENAI_API_KEY: "sk-test" }, gemini: { GEMINI_API_KEY: "gemini-test-key" } } as const;
const program = (family: keyof typeof MODELS, onDenied: string) => `${MODELS[family]}
schema Refund { id: string  refunded: float }
tool issue_refund(id: string) -> Refund { side_effects: "write" }
agent Refunds {
  model: M
  tools: [issue_refund]
  tool_policy: "deny_write"
  ${onDenied}
  fn handle(id: string) -> string { ask "Refund {id}" -> string }
}
print(Refunds.handle("A-7"))
`;

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake?.stop());

describe("luma check: on_denied", () => {
  test("takes \"fail\" or \"tell_model\" only", () => {
    const bad = runLuma(["check", file(program("openai", `on_denied: "ignore"`))]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout + bad.stderr).toContain("on_denied");
    expect(runLuma(["check", file(program("openai", `on_denied: "tell_model"`))]).exitCode).toBe(0);
  });
});

for (const family of ["openai", "gemini"] as const) {
  describe(`runs on ${family}`, () => {
    const env = () => ({ ...KEYS[family], LUMA_BASE_URL_M: fake.baseUrl(family) });

    test(`on_denied: "tell_model": a deny_write refusal is a tool error result and the ask goes on`, async () => {
      fake.script([{ toolCalls: [{ name: "issue_refund", args: { id: "A-7" } }] }, { json: { value: "I could not refund this." } }]);
      const r = await runLumaAsync([file(program(family, `on_denied: "tell_model"`)), "--tool-module", TOOLS_MODULE], env());
      expect(r.stdout).toBe("I could not refund this.\n");
      expect(r.exitCode).toBe(0);
      const second = JSON.stringify(fake.requests[1].body);
      expect(second).toContain("TOOL_PERMISSION_DENIED");
      expect(second).toContain("has tool_policy deny_write");
      expect(second).not.toContain("refunded");
    }, LIMIT_MS);

    test(`on_denied: "tell_model": each refusal is told, and the model may try again`, async () => {
      fake.script([
        { toolCalls: [{ name: "issue_refund", args: { id: "A-7" } }] },
        { toolCalls: [{ name: "issue_refund", args: { id: "A-8" } }] },
        { json: { value: "Refunds refused twice." } },
      ]);
      const r = await runLumaAsync([file(program(family, `on_denied: "tell_model"`)), "--tool-module", TOOLS_MODULE], env());
      expect(r.stdout).toBe("Refunds refused twice.\n");
      expect(fake.requests.length).toBe(3);
    }, LIMIT_MS);

    test("the default (fail): the refusal ends the ask", async () => {
      fake.script([{ toolCalls: [{ name: "issue_refund", args: { id: "A-7" } }] }, { json: { value: "never asked" } }]);
      const r = await runLumaAsync([file(program(family, "")), "--tool-module", TOOLS_MODULE], env());
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain("[TOOL_PERMISSION_DENIED]");
      expect(fake.requests.length).toBe(1);
    }, LIMIT_MS);
  });
}
