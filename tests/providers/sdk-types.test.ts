/**
 * The request bodies Luma sends, type-checked against the official SDKs' own types (dev
 * dependencies `openai`, `@anthropic-ai/sdk`, `@google/genai`): each captured body is
 * written into a .ts file as `const body: <SDK type> = <captured JSON>` and compiled with
 * tsc — a field the API does not know, or a value of the wrong shape, fails to compile.
 * The program exercises the strict-schema adaptations (issue #16 §1): a `uri` format and a
 * `@default` (OpenAI), patterns (Anthropic), a tagged union (Gemini's tag enum).
 *
 * Gemini's SDK types the REST body's parts, not the body itself (its `generateContent`
 * takes a flattened `config`), so the body type is assembled from them: `Content`, `Tool`,
 * `ToolConfig`, `GenerationConfig`.
 */
import { describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeProvider, program, runAsk, type ProviderKind } from "../ask/ask-harness";
import { REPO } from "../support/luma-binary";

const TOOLS = `system: "Be careful."\n  tools: [text_stats, calculate, file_doc]`;
const DECLS = `
schema Invoice { number: string @pattern("^[0-9]{3}$")  link: string @format("uri")  note?: string @default("none") }
schema Receipt { reference: string @pattern("^(?!x)")  }
schema Document = Invoice | Receipt tagged by kind
tool file_doc(doc: Document) -> TextStats { side_effects: "none" }
`;
const DOC_TOOLS = `export const lumaTools = { file_doc: () => ({ characters: 1, words: 1 }) };`;
const ASK = `ask "Call both tools, then answer." -> FinalResult`;

const SAMPLING = "temperature: 0.2  max_tokens: 500";

/** `modelName`: [the harness's model name, the one to use instead]. */
async function captured(kind: ProviderKind, modelExtra = SAMPLING, modelName?: [string, string]): Promise<unknown[]> {
  const fake = await fakeProvider();
  fake.script([{ toolCalls: [{ name: "calculate", args: { a: 1, b: 2, operation: "add" } }, { name: "text_stats", args: { text: "x" } }] }, { json: { words: 1, sum: 3 } }]);
  let source = program(kind, TOOLS, ASK, { modelExtra, decls: DECLS });
  if (modelName) source = source.replace(`name: "${modelName[0]}"`, `name: "${modelName[1]}"`);
  const r = await runAsk(fake, source, { kind, toolModule: DOC_TOOLS });
  expect(r.error).toBeUndefined();
  return fake.requests.map((q) => q.body);
}

const OPENAI_HEADER = `import type OpenAI from "openai";`;
const ANTHROPIC_HEADER = `import type Anthropic from "@anthropic-ai/sdk";`;
const GEMINI_HEADER = `import type { Content, FunctionCallingConfig, FunctionCallingConfigMode, GenerationConfig, ThinkingConfig, ThinkingLevel, Tool, ToolConfig } from "@google/genai";
// The SDK's modes and thinking levels are TS string enums; on the wire they are their string values.
type WireToolConfig = Omit<ToolConfig, "functionCallingConfig"> & {
  functionCallingConfig?: Omit<FunctionCallingConfig, "mode"> & { mode?: \`\${FunctionCallingConfigMode}\` };
};
type WireGenerationConfig = Omit<GenerationConfig, "thinkingConfig"> & {
  thinkingConfig?: Omit<ThinkingConfig, "thinkingLevel"> & { thinkingLevel?: \`\${ThinkingLevel}\` };
};
type GeminiBody = { contents: Content[]; systemInstruction?: Content; tools?: Tool[]; toolConfig?: WireToolConfig; generationConfig?: WireGenerationConfig };`;

function typeCheck(typeName: string, bodies: unknown[], header = OPENAI_HEADER): { exitCode: number; output: string } {
  const file = join(REPO, "tests", `.sdk-types-${process.pid}-${typeName.replace(/\W/g, "")}.ts`);
  const lines = bodies.map((b, i) => `export const body${i}: ${typeName} = ${JSON.stringify(b, null, 2)};`);
  writeFileSync(file, `${header}\n${lines.join("\n")}\n`);
  try {
    const r = Bun.spawnSync(["bunx", "tsc", "--noEmit", "--strict", "--skipLibCheck", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2022", file], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
    return { exitCode: r.exitCode ?? -1, output: r.stdout.toString() + r.stderr.toString() };
  } finally {
    rmSync(file, { force: true });
  }
}

describe("PROVIDERS — request bodies against the official SDK types (OpenAI, Anthropic, Gemini)", () => {
  test("Responses API: both turns of a tool round trip are ResponseCreateParamsNonStreaming", async () => {
    const bodies = await captured("openai-responses");
    const r = typeCheck("OpenAI.Responses.ResponseCreateParamsNonStreaming", bodies);
    expect(r.output).toBe("");
    expect(r.exitCode).toBe(0);
  }, 60_000);

  test("Chat Completions (OpenAI and Azure dated): both turns are ChatCompletionCreateParamsNonStreaming", async () => {
    const bodies = [...(await captured("openai")), ...(await captured("azure-dated"))];
    const r = typeCheck("OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming", bodies);
    expect(r.output).toBe("");
    expect(r.exitCode).toBe(0);
  }, 60_000);

  test("Anthropic Messages: both turns are MessageCreateParamsNonStreaming", async () => {
    // Without `temperature`: @anthropic-ai/sdk 1.x no longer types it (a deprecated sampling
    // parameter); whether Luma should stop sending it is a question apart from these schemas.
    const r = typeCheck("Anthropic.MessageCreateParamsNonStreaming", await captured("anthropic", "max_tokens: 500"), ANTHROPIC_HEADER);
    expect(r.output).toBe("");
    expect(r.exitCode).toBe(0);
  }, 60_000);

  test("Gemini generateContent: both turns are the REST body built from the SDK's Content, Tool, ToolConfig, GenerationConfig", async () => {
    const r = typeCheck("GeminiBody", await captured("gemini"), GEMINI_HEADER);
    expect(r.output).toBe("");
    expect(r.exitCode).toBe(0);
  }, 60_000);

  test("issue #26 §5: the model options' fields are the SDKs' own (Chat, Responses, Anthropic budget and adaptive thinking, Gemini)", async () => {
    const chat = [...(await captured("openai", `top_p: 0.9  seed: 7  stop: ["END"]  reasoning_effort: "low"  provider_options: { service_tier: "flex" }`))];
    expect(typeCheck("OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming", chat)).toEqual({ exitCode: 0, output: "" });
    const responses = await captured("openai-responses", `top_p: 0.9  reasoning_effort: "medium"`);
    expect(typeCheck("OpenAI.Responses.ResponseCreateParamsNonStreaming", responses)).toEqual({ exitCode: 0, output: "" });
    const anthropic = [...(await captured("anthropic", `stop: ["END"]  reasoning_effort: "low"`)), ...(await captured("anthropic", `reasoning_effort: "high"`, ["claude-sonnet-4-5", "claude-opus-4-6"]))];
    expect(anthropic.map((b) => (b as { thinking: { type: string } }).thinking.type)).toEqual(["enabled", "enabled", "adaptive", "adaptive"]);
    expect(typeCheck("Anthropic.MessageCreateParamsNonStreaming", anthropic, ANTHROPIC_HEADER)).toEqual({ exitCode: 0, output: "" });
    const gemini = [...(await captured("gemini", `top_p: 0.9  seed: 7  stop: ["END"]  reasoning_effort: "medium"`))];
    expect(typeCheck("GeminiBody", gemini, GEMINI_HEADER)).toEqual({ exitCode: 0, output: "" });
  }, 120_000);

  test("the check has teeth for Anthropic and Gemini too: an unknown field fails to compile", () => {
    const a = typeCheck("Anthropic.MessageCreateParamsNonStreaming", [{ model: "m", max_tokens: 5, messages: [], output_format: {} }], ANTHROPIC_HEADER);
    expect(a.exitCode).not.toBe(0);
    expect(a.output).toContain("output_format");
    const g = typeCheck("GeminiBody", [{ contents: [], generationConfig: { responseSchemaJson: {} } }], GEMINI_HEADER);
    expect(g.exitCode).not.toBe(0);
    expect(g.output).toContain("responseSchemaJson");
  }, 60_000);

  test("the check has teeth: a body with a field the SDK does not know fails to compile", () => {
    const r = typeCheck("OpenAI.Responses.ResponseCreateParamsNonStreaming", [{ model: "m", input: [], max_tokens: 5 }]);
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toContain("max_tokens");
  }, 60_000);
});
