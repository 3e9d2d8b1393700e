/**
 * Test harness for `ask`: runs a program in-process through the library (`runFile`), its
 * model redirected to the fake provider with `LUMA_BASE_URL_M`, retry waits recorded instead
 * of slept, trace events collected. Programs name their model `M`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runFile } from "../../src/index";
import { LumaError } from "../../src/diagnostics/luma-error";
import type { Transport } from "../../src/runtime/providers/transport";
import { startFakeProvider, type FakeProvider } from "../support/fake-provider/fake-provider";

export type ProviderKind = "openai" | "openai-responses" | "openai-compatible" | "azure" | "azure-dated" | "anthropic" | "gemini";

export const KEYS: Record<ProviderKind, Record<string, string>> = {
  openai: { OPENAI_API_KEY: "sk-test-openai" },
  "openai-responses": { OPENAI_API_KEY: "sk-test-openai" },
  "openai-compatible": {},
  azure: { AZURE_OPENAI_API_KEY: "azure-test-key" },
  "azure-dated": { AZURE_OPENAI_API_KEY: "azure-test-key" },
  anthropic: { ANTHROPIC_API_KEY: "sk-ant-test" },
  gemini: { GEMINI_API_KEY: "gemini-test-key" },
};

/** A `model M { … }` declaration for each kind (Azure dated = with api_version; openai-responses = `api: "responses"`). */
export function modelDecl(kind: ProviderKind, extra = ""): string {
  const body: Record<ProviderKind, string> = {
    openai: `provider: "openai"  name: "gpt-5.4-mini"`,
    "openai-responses": `provider: "openai"  name: "gpt-5.4-mini"  api: "responses"`,
    "openai-compatible": `provider: "openai-compatible"  name: "llama3.2"  base_url: "http://127.0.0.1:9/v1"`,
    azure: `provider: "azure"  name: "gpt-4o"  deployment: "prod-4o"`,
    "azure-dated": `provider: "azure"  name: "gpt-4o"  deployment: "prod-4o"  api_version: "2024-10-21"`,
    anthropic: `provider: "anthropic"  name: "claude-sonnet-4-5"`,
    gemini: `provider: "gemini"  name: "gemini-3-flash"`,
  };
  return `model M { ${body[kind]} ${extra} }\n`;
}

let shared: FakeProvider | undefined;
export async function fakeProvider(): Promise<FakeProvider> {
  shared ??= await startFakeProvider();
  shared.expectKey(undefined);
  return shared;
}

export interface AskRun {
  out: string[];
  err: string[];
  error?: LumaError;
  trace: any[];
  sleeps: number[];
  dir: string;
}

export interface AskRunOptions {
  kind?: ProviderKind;
  env?: Record<string, string | undefined>;
  /** Source of a tool module (TypeScript), loaded with --tool-module. */
  toolModule?: string;
  record?: string;
  replay?: string;
  maxResponseBytes?: number;
  transport?: Transport;
  /** Do not point the model at the fake (replay, connection tests). */
  noRedirect?: boolean;
}

export async function runAsk(fake: FakeProvider | undefined, source: string, opts: AskRunOptions = {}): Promise<AskRun> {
  const kind = opts.kind ?? "openai";
  const dir = mkdtempSync(join(tmpdir(), "luma-ask-"));
  const file = join(dir, "main.luma");
  writeFileSync(file, source);
  const toolModules: string[] = [];
  if (opts.toolModule) {
    writeFileSync(join(dir, "tools.ts"), opts.toolModule);
    toolModules.push(join(dir, "tools.ts"));
  }
  const tracePath = join(dir, "trace.jsonl");
  const run: AskRun = { out: [], err: [], trace: [], sleeps: [], dir };
  const env: Record<string, string | undefined> = { LUMA_NO_CACHE: "1", ...KEYS[kind], ...opts.env };
  if (fake && !opts.noRedirect) env.LUMA_BASE_URL_M = fake.baseUrl(kind);
  try {
    await runFile({
      file,
      args: [],
      toolModules,
      trace: tracePath,
      cwd: dir,
      env,
      stdout: (l) => run.out.push(l),
      stderr: (l) => run.err.push(l),
      interactive: false,
      record: opts.record,
      replay: opts.replay,
      askHooks: {
        sleep: async (ms) => void run.sleeps.push(ms),
        maxResponseBytes: opts.maxResponseBytes,
        transport: opts.transport,
      },
    });
  } catch (e) {
    if (!(e instanceof LumaError)) throw e;
    run.error = e;
  }
  run.trace = readFileSync(tracePath, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  return run;
}

/** Schemas and tools most tests share; `calculate` and `text_stats` have built-in handlers. */
export const COMMON = `
schema CalcResult { result: float }
schema TextStats { characters: int  words: int }
schema FinalResult { words: int  sum: float }
schema Answer { summary: string  score: int @range(0, 10)  tags?: string[] }
tool calculate(a: float, b: float, operation: enum["add", "multiply"] @desc("Operation to perform")) -> CalcResult {
  description: "Adds or multiplies two numbers"
}
tool text_stats(text: string) -> TextStats {}
`;

/** A program with one agent `A` (model M) running `ask` in `A.run()` and printing the result. */
export function program(kind: ProviderKind, agentBody: string, ask: string, opts: { modelExtra?: string; decls?: string } = {}): string {
  return `${modelDecl(kind, opts.modelExtra)}${COMMON}${opts.decls ?? ""}
agent A {
  model: M
  ${agentBody}
  fn run() -> any {
    ${ask}
  }
}
print(A.run())
`;
}
