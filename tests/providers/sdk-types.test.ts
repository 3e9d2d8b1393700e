/**
 * The request bodies Luma sends, type-checked against the official OpenAI SDK's own types
 * (dev dependency `openai`): each captured body is written into a .ts file as
 * `const body: OpenAI.…CreateParamsNonStreaming = <captured JSON>` and compiled with tsc —
 * a field the API does not know, or a value of the wrong shape, fails to compile.
 */
import { describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeProvider, program, runAsk, type ProviderKind } from "../ask/ask-harness";
import { REPO } from "../support/luma-binary";

const TOOLS = `system: "Be careful."\n  tools: [text_stats, calculate]`;
const ASK = `ask "Call both tools, then answer." -> FinalResult`;

async function captured(kind: ProviderKind, extra = ""): Promise<unknown[]> {
  const fake = await fakeProvider();
  fake.script([{ toolCalls: [{ name: "calculate", args: { a: 1, b: 2, operation: "add" } }, { name: "text_stats", args: { text: "x" } }] }, { json: { words: 1, sum: 3 } }]);
  const r = await runAsk(fake, program(kind, TOOLS, ASK, { modelExtra: `temperature: 0.2  max_tokens: 500 ${extra}` }), { kind });
  expect(r.error).toBeUndefined();
  return fake.requests.map((q) => q.body);
}

function typeCheck(typeName: string, bodies: unknown[]): { exitCode: number; output: string } {
  const file = join(REPO, "tests", `.sdk-types-${process.pid}-${typeName.replace(/\W/g, "")}.ts`);
  const lines = bodies.map((b, i) => `export const body${i}: ${typeName} = ${JSON.stringify(b, null, 2)};`);
  writeFileSync(file, `import type OpenAI from "openai";\n${lines.join("\n")}\n`);
  try {
    const r = Bun.spawnSync(["bunx", "tsc", "--noEmit", "--strict", "--skipLibCheck", "--module", "esnext", "--moduleResolution", "bundler", "--target", "es2022", file], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
    return { exitCode: r.exitCode ?? -1, output: r.stdout.toString() + r.stderr.toString() };
  } finally {
    rmSync(file, { force: true });
  }
}

describe("PROVIDERS — request bodies against the official OpenAI SDK types", () => {
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

  test("the check has teeth: a body with a field the SDK does not know fails to compile", () => {
    const r = typeCheck("OpenAI.Responses.ResponseCreateParamsNonStreaming", [{ model: "m", input: [], max_tokens: 5 }]);
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toContain("max_tokens");
  }, 60_000);
});
