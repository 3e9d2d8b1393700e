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
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
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

/** One file of the type check: `export const body<i>: <typeName> = <body>` for each body. */
interface BodyFile {
  typeName: string;
  bodies: unknown[];
  header?: string;
}

/**
 * Type-checks every file in one tsc program (loading the three SDKs' types once instead of
 * once per file: most of a check's time) and gives each file the diagnostics located in it.
 * The files are plain modules, so they cannot see each other's declarations. They are written
 * under dist/ (ignored by git, and not among the folders other tests scan) so that `openai`
 * and the other SDKs resolve from the repository's node_modules.
 */
function typeCheckAll(files: Record<string, BodyFile>): { exitCode: number; errors: Record<string, string>; unattributed: string } {
  const dir = join(REPO, "dist", `.sdk-types-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const names = Object.keys(files);
  const fileOf = (name: string) => `sdk-body-${name}.ts`;
  for (const name of names) {
    const { typeName, bodies, header = OPENAI_HEADER } = files[name]!;
    const lines = bodies.map((b, i) => `export const body${i}: ${typeName} = ${JSON.stringify(b, null, 2)};`);
    writeFileSync(join(dir, fileOf(name)), `${header}\n${lines.join("\n")}\n`);
  }
  try {
    const args = ["--noEmit", "--strict", "--skipLibCheck", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2022", "--pretty", "false"];
    const r = Bun.spawnSync(["bunx", "tsc", ...args, ...names.map((n) => join(dir, fileOf(n)))], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
    // A diagnostic starts with its file's path, `file.ts(line,col): error …`; its further lines are indented.
    const errors: Record<string, string> = Object.fromEntries(names.map((n) => [n, ""]));
    let unattributed = "";
    let current: string | undefined;
    for (const line of (r.stdout.toString() + r.stderr.toString()).split("\n")) {
      if (line === "") continue;
      if (!/^\s/.test(line)) current = names.find((n) => line.includes(`${fileOf(n)}(`));
      if (current === undefined) unattributed += line + "\n";
      else errors[current] += line + "\n";
    }
    return { exitCode: r.exitCode ?? -1, errors, unattributed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CHAT = "OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming";
const RESPONSES = "OpenAI.Responses.ResponseCreateParamsNonStreaming";
const MESSAGES = "Anthropic.MessageCreateParamsNonStreaming";

let checked: ReturnType<typeof typeCheckAll>;
let optionBodies: { anthropic: unknown[] };

// Every body is captured first (each a real `dist/luma` run against the fake provider), then
// all are type-checked in one tsc run; each test below reads its own files' diagnostics.
beforeAll(async () => {
  const chat = [...(await captured("openai")), ...(await captured("azure-dated"))];
  // Anthropic without `temperature`: @anthropic-ai/sdk 1.x no longer types it (a deprecated
  // sampling parameter); whether Luma should stop sending it is a question apart from these schemas.
  const anthropic = await captured("anthropic", "max_tokens: 500");
  const options = {
    chat: await captured("openai", `top_p: 0.9  seed: 7  stop: ["END"]  reasoning_effort: "low"  provider_options: { service_tier: "flex" }`),
    responses: await captured("openai-responses", `top_p: 0.9  reasoning_effort: "medium"`),
    anthropic: [...(await captured("anthropic", `stop: ["END"]  reasoning_effort: "low"`)), ...(await captured("anthropic", `reasoning_effort: "high"`, ["claude-sonnet-4-5", "claude-opus-4-6"]))],
    gemini: await captured("gemini", `top_p: 0.9  seed: 7  stop: ["END"]  reasoning_effort: "medium"`),
  };
  optionBodies = { anthropic: options.anthropic };
  checked = typeCheckAll({
    responses: { typeName: RESPONSES, bodies: await captured("openai-responses") },
    chat: { typeName: CHAT, bodies: chat },
    anthropic: { typeName: MESSAGES, bodies: anthropic, header: ANTHROPIC_HEADER },
    gemini: { typeName: "GeminiBody", bodies: await captured("gemini"), header: GEMINI_HEADER },
    optionsChat: { typeName: CHAT, bodies: options.chat },
    optionsResponses: { typeName: RESPONSES, bodies: options.responses },
    optionsAnthropic: { typeName: MESSAGES, bodies: options.anthropic, header: ANTHROPIC_HEADER },
    optionsGemini: { typeName: "GeminiBody", bodies: options.gemini, header: GEMINI_HEADER },
    // The teeth: bodies with a field the SDK does not know.
    teethResponses: { typeName: RESPONSES, bodies: [{ model: "m", input: [], max_tokens: 5 }] },
    teethAnthropic: { typeName: MESSAGES, bodies: [{ model: "m", max_tokens: 5, messages: [], output_format: {} }], header: ANTHROPIC_HEADER },
    teethGemini: { typeName: "GeminiBody", bodies: [{ contents: [], generationConfig: { responseSchemaJson: {} } }], header: GEMINI_HEADER },
  });
}, 120_000);

/** The files type-check: no diagnostic in them, and none tsc could not place in a file. */
const compiles = (...names: string[]) => {
  expect(checked.unattributed).toBe("");
  for (const name of names) expect({ name, errors: checked.errors[name] }).toEqual({ name, errors: "" });
};

/** The file fails to compile, and the diagnostic names the unknown field. */
const refused = (name: string, field: string) => {
  expect(checked.exitCode).not.toBe(0);
  expect(checked.errors[name]).toContain("error TS");
  expect(checked.errors[name]).toContain(field);
};

describe("PROVIDERS — request bodies against the official SDK types (OpenAI, Anthropic, Gemini)", () => {
  test("Responses API: both turns of a tool round trip are ResponseCreateParamsNonStreaming", () => {
    compiles("responses");
  });

  test("Chat Completions (OpenAI and Azure dated): both turns are ChatCompletionCreateParamsNonStreaming", () => {
    compiles("chat");
  });

  test("Anthropic Messages: both turns are MessageCreateParamsNonStreaming", () => {
    compiles("anthropic");
  });

  test("Gemini generateContent: both turns are the REST body built from the SDK's Content, Tool, ToolConfig, GenerationConfig", () => {
    compiles("gemini");
  });

  test("issue #26 §5: the model options' fields are the SDKs' own (Chat, Responses, Anthropic budget and adaptive thinking, Gemini)", () => {
    expect(optionBodies.anthropic.map((b) => (b as { thinking: { type: string } }).thinking.type)).toEqual(["enabled", "enabled", "adaptive", "adaptive"]);
    compiles("optionsChat", "optionsResponses", "optionsAnthropic", "optionsGemini");
  });

  test("the check has teeth for Anthropic and Gemini too: an unknown field fails to compile", () => {
    refused("teethAnthropic", "output_format");
    refused("teethGemini", "responseSchemaJson");
  });

  test("the check has teeth: a body with a field the SDK does not know fails to compile", () => {
    refused("teethResponses", "max_tokens");
  });
});
