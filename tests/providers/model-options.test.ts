/**
 * Issue #26 §5, model options: `top_p`, `seed`, `stop`, `reasoning_effort` and
 * `provider_options`, mapped onto each family's request body (checked here field by field,
 * and against the official SDKs' types in sdk-types.test.ts), and the check errors for an
 * option the model's API has no field for (E0291), a `provider_options` path Luma writes
 * (E0292), `top_p` out of range (E0293) and what Anthropic refuses while thinking (E0294).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeProvider, program, runAsk, type ProviderKind } from "../ask/ask-harness";
import { runLuma } from "../support/luma-binary";

const ASK = `ask "Summarise." -> Answer`;
const ANSWER = { summary: "ok", score: 3 };

/** The body of the one request an `ask` sends, for a model with these extra keys (and another model name). */
async function bodyOf(kind: ProviderKind, modelExtra: string, rename?: [string, string]): Promise<Record<string, any>> {
  const fake = await fakeProvider();
  fake.script([{ json: ANSWER }]);
  let source = program(kind, "", ASK, { modelExtra });
  if (rename) source = source.replace(`name: "${rename[0]}"`, `name: "${rename[1]}"`);
  const r = await runAsk(fake, source, { kind });
  expect(r.error).toBeUndefined();
  expect(fake.requests.length).toBe(1);
  return fake.requests[0].body;
}

const SAMPLING = `top_p: 0.9  seed: 7  stop: ["END", "###"]  reasoning_effort: "low"`;

describe("issue #26 §5: model options on the wire, per family", () => {
  test("Chat Completions (OpenAI, Azure, compatible): top_p, seed, stop, reasoning_effort as the API names them", async () => {
    for (const kind of ["openai", "azure-dated", "openai-compatible"] as const) {
      const body = await bodyOf(kind, SAMPLING);
      expect(body).toMatchObject({ top_p: 0.9, seed: 7, stop: ["END", "###"], reasoning_effort: "low" });
    }
  });

  test("Responses API: top_p, and reasoning_effort as reasoning.effort", async () => {
    const body = await bodyOf("openai-responses", `top_p: 0.5  reasoning_effort: "high"`);
    expect(body.top_p).toBe(0.5);
    expect(body.reasoning).toEqual({ effort: "high" });
  });

  test("Anthropic before 4.6: stop_sequences, and thinking with a token budget added to the answer's max_tokens", async () => {
    const body = await bodyOf("anthropic", `stop: ["END"]  reasoning_effort: "medium"  max_tokens: 1000`);
    expect(body.stop_sequences).toEqual(["END"]);
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
    expect(body.max_tokens).toBe(5096);
    expect(body.output_config.effort).toBeUndefined();
  });

  test("Anthropic 4.6 and later: adaptive thinking at an effort level, beside the answer's format", async () => {
    const body = await bodyOf("anthropic", `reasoning_effort: "high"`, ["claude-sonnet-4-5", "claude-opus-4-6"]);
    expect(body.thinking).toEqual({ type: "adaptive" });
    expect(body.output_config.effort).toBe("high");
    expect(body.output_config.format.type).toBe("json_schema");
    expect(body.max_tokens).toBe(4096);
  });

  test("Gemini: topP, seed, stopSequences; a thinking level (Gemini 3) or a thinking budget (Gemini 2.x)", async () => {
    const three = await bodyOf("gemini", SAMPLING);
    expect(three.generationConfig).toMatchObject({ topP: 0.9, seed: 7, stopSequences: ["END", "###"], thinkingConfig: { thinkingLevel: "LOW" } });
    const two = await bodyOf("gemini", `reasoning_effort: "high"`, ["gemini-3-flash", "gemini-2.5-flash"]);
    expect(two.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 24576 });
  });

  test("provider_options is merged last: an object into Luma's object, anything else set", async () => {
    const gemini = await bodyOf("gemini", `temperature: 0.3  provider_options: { generationConfig: { topK: 40 }, safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }] }`);
    expect(gemini.generationConfig).toMatchObject({ temperature: 0.3, topK: 40, responseMimeType: "application/json" });
    expect(gemini.safetySettings).toEqual([{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }]);
    const openai = await bodyOf("openai", `provider_options: { service_tier: "flex", metadata: { team: "support" } }`);
    expect(openai).toMatchObject({ service_tier: "flex", metadata: { team: "support" } });
    expect(openai.messages.length).toBe(1);
  });

  test("no option set: no field sent (existing requests are unchanged)", async () => {
    const body = await bodyOf("openai", "");
    for (const key of ["top_p", "seed", "stop", "reasoning_effort"]) expect(Object.keys(body)).not.toContain(key);
  });
});

function check(source: string): { exitCode: number; stderr: string } {
  const file = join(mkdtempSync(join(tmpdir(), "luma-model-options-")), "main.luma");
  writeFileSync(file, source);
  const r = runLuma(["check", file]);
  return { exitCode: r.exitCode, stderr: r.stderr };
}

describe("issue #26 §5: what a model's API does not take is a check error naming the key and the API", () => {
  test("E0291: seed and top_p on Anthropic, stop and seed on the Responses API", () => {
    const a = check(`model M { provider: "anthropic", name: "claude-sonnet-4-5", seed: 7, top_p: 0.9 }\n`);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain("error[E0291]: Model 'M': the Anthropic Messages API has no 'top_p' option.");
    expect(a.stderr).toContain("error[E0291]: Model 'M': the Anthropic Messages API has no 'seed' option.");
    const r = check(`model R { provider: "openai", name: "gpt-5.4-mini", api: "responses", stop: ["x"], seed: 1 }\n`);
    expect(r.stderr).toContain("error[E0291]: Model 'R': the OpenAI Responses API has no 'stop' option.");
    expect(r.stderr).toContain("error[E0291]: Model 'R': the OpenAI Responses API has no 'seed' option.");
  });

  test("E0292: provider_options may not set what Luma writes; the thinking fields only when reasoning_effort is set", () => {
    const r = check(`model O { provider: "openai", name: "gpt-5.4-mini", provider_options: { messages: [], tool_choice: "none" } }
model G { provider: "gemini", name: "gemini-3-flash", provider_options: { generationConfig: { topK: 3, responseSchema: {} } } }
model A { provider: "anthropic", name: "claude-sonnet-4-5", reasoning_effort: "low", provider_options: { thinking: { type: "disabled" } } }
model B { provider: "anthropic", name: "claude-sonnet-4-5", provider_options: { thinking: { type: "enabled", budget_tokens: 2048 } } }
`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[E0292]: Model 'O': provider_options cannot set 'messages': Luma writes it for OpenAI Chat Completions.");
    expect(r.stderr).toContain("error[E0292]: Model 'O': provider_options cannot set 'tool_choice'");
    expect(r.stderr).toContain("error[E0292]: Model 'G': provider_options cannot set 'generationConfig.responseSchema'");
    expect(r.stderr).not.toContain("generationConfig.topK");
    expect(r.stderr).toContain("error[E0292]: Model 'A': provider_options cannot set 'thinking'");
    expect(r.stderr).not.toContain("Model 'B'");
  });

  test("E0293: top_p outside 0–1; a provider_options value that is not a constant is the key's type error", () => {
    const r = check(`model M { provider: "openai", name: "gpt-5.4-mini", top_p: 1.5 }\nmodel N { provider: "openai", name: "gpt-5.4-mini", provider_options: { user: SomeName } }\n`);
    expect(r.stderr).toContain("error[E0293]: Model 'M': top_p must be between 0 and 1.");
    expect(r.stderr).toContain("provider_options");
    expect(r.stderr).toContain("a constant object");
  });

  test("E0294: Anthropic thinking takes no temperature and no forced tool", () => {
    const r = check(`model M { provider: "anthropic", name: "claude-sonnet-4-5", reasoning_effort: "low", temperature: 0.2 }
schema Out { n: int }
tool t(a: int) -> Out {}
agent A {
  model: M
  tools: [t]
  fn run() -> Out { ask "go" -> Out using tool t }
}
`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error[E0294]: Model 'M': with reasoning_effort, Anthropic takes no temperature.");
    expect(r.stderr).toContain("error[E0294]: Model 'M': with reasoning_effort, Anthropic takes no forced tool (`using tool`).");
  });

  test("a reasoning_effort outside the three levels is the key's own error", () => {
    const r = check(`model M { provider: "openai", name: "gpt-5.4-mini", reasoning_effort: "extreme" }\n`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`"low", "medium" or "high"`);
  });
});
