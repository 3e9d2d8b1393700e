import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgv } from "../../src/cli/argv";
import { adapterFor } from "../../src/runtime/providers/adapter-table";
import { REPO, runLuma } from "../support/luma-binary";

const EXAMPLE = join(REPO, "examples/041_multi_tool_worker.luma");
const CASSETTE = join(REPO, "examples/cassettes/041_multi_tool_worker.jsonl");

/** The shipped example with extra model keys (the cassette still matches: prices are not sent). */
function example(modelKeys: string): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-usage-"));
  const file = join(dir, "main.luma");
  writeFileSync(file, readFileSync(EXAMPLE, "utf8").replace('name: "gpt-5.4-mini"', `name: "gpt-5.4-mini"\n  ${modelKeys}`));
  return file;
}

describe("usage and cost: tokens from every response, summed per ask, agent and run", () => {
  test("cached and reasoning tokens are read from each wire format (input includes cached, output includes reasoning)", () => {
    const chat = adapterFor("openai").parseResponse(
      { choices: [{ finish_reason: "stop", message: { content: "{}" } }], usage: { prompt_tokens: 100, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 64 }, completion_tokens_details: { reasoning_tokens: 30 } } },
      0,
    );
    expect(chat.usage).toEqual({ input: 100, output: 40, cached: 64, reasoning: 30 });
    const claude = adapterFor("anthropic").parseResponse({ content: [], stop_reason: "end_turn", usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 50, cache_creation_input_tokens: 5 } }, 0);
    expect(claude.usage).toEqual({ input: 65, output: 2, cached: 50, cacheWrite: 5 }); // cache writes: part of input, read for gen_ai.usage.cache_creation.input_tokens
    const gem = adapterFor("gemini").parseResponse(
      { candidates: [{ finishReason: "STOP", content: { parts: [{ text: "{}" }] } }], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 3, thoughtsTokenCount: 4, cachedContentTokenCount: 6 } },
      0,
    );
    expect(gem.usage).toEqual({ input: 9, output: 7, cached: 6, reasoning: 4 });
  });

  test("--usage prints the per-model table on stderr at the end; the trace ends with run.usage per model and agent", () => {
    const r = runLuma([EXAMPLE, "--replay", CASSETTE, "--usage", "--trace", join(mkdtempSync(join(tmpdir(), "luma-u-")), "t.jsonl")]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([
      "usage      provider  asks  requests  input  cached  output  reasoning",
      "GPT54Mini  openai       1         2    130       -      17          -",
      "total                   1         2    130       -      17          -",
    ]);
    const t = runLuma([EXAMPLE, "--replay", CASSETTE, "--trace", "-"]);
    const last = JSON.parse(t.stderr.trim().split("\n").at(-1)!);
    expect(last).toMatchObject({
      event: "run.usage",
      models: [{ model: "GPT54Mini", provider: "openai", asks: 1, requests: 2, tokens_in: 130, tokens_out: 17, cost_usd: null }],
      agents: [{ agent: "MultiToolWorker", asks: 1, tokens_in: 130, tokens_out: 17 }],
      total: { asks: 1, requests: 2, tokens_in: 130, tokens_out: 17 },
    });
    // Without --usage nothing is printed.
    expect(runLuma([EXAMPLE, "--replay", CASSETTE]).stderr).toBe("");
  });

  test("price_in_per_mtok / price_out_per_mtok add a cost column (USD): 130 × 0.25 + 17 × 2.00 per million", () => {
    const r = runLuma([example("price_in_per_mtok: 0.25\n  price_out_per_mtok: 2"), "--replay", CASSETTE, "--usage"]);
    expect(r.exitCode).toBe(0);
    const lines = r.stderr.split("\n").filter(Boolean);
    expect(lines[0]).toEndWith("reasoning  cost (USD)");
    expect(lines[1]).toEndWith("0.000067");
    expect(lines[2]).toStartWith("total");
  });

  test("a negative price is rejected at check time naming the key; --usage takes no value", () => {
    const r = runLuma([example("price_in_per_mtok: -1"), "--replay", CASSETTE]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("price_in_per_mtok");
    expect(r.stderr).toContain("a number >= 0");
    expect(() => parseArgv(["a.luma", "--usage=yes"])).toThrow("option --usage takes no value");
    expect(parseArgv(["a.luma", "--usage", "x"])).toMatchObject({ usage: true, args: ["x"] });
  });

  test("the table is printed also when the run fails (the tokens were spent)", () => {
    const dir = mkdtempSync(join(tmpdir(), "luma-uf-"));
    const file = join(dir, "main.luma");
    writeFileSync(file, readFileSync(EXAMPLE, "utf8") + '\nx = 1 / 0\n');
    const r = runLuma([file, "--replay", CASSETTE, "--usage"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("GPT54Mini  openai       1         2    130");
  });
});
