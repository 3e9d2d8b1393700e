import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgv } from "../../src/cli/argv";
import { ensureBinary, REPO, runLuma } from "../support/luma-binary";
import { fakeProvider } from "./ask-harness";

const EXAMPLE = "examples/041_multi_tool_worker.luma";
const CASSETTE = "examples/cassettes/041_multi_tool_worker.jsonl";

/** The binary, run asynchronously (the fake provider lives in this process and must keep answering). */
async function lumaAsync(args: string[], env: Record<string, string>) {
  const p = Bun.spawn([ensureBinary(), ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, exitCode };
}

describe("§15 command line: --record FILE / --replay FILE", () => {
  test("parsed before or after FILE; together, or with `luma check`, they are usage errors", () => {
    expect(parseArgv(["--replay", "c.jsonl", "a.luma"])).toMatchObject({ kind: "run", file: "a.luma", replay: "c.jsonl" });
    expect(parseArgv(["a.luma", "--record=c.jsonl", "x"])).toMatchObject({ file: "a.luma", record: "c.jsonl", args: ["x"] });
    expect(() => parseArgv(["a.luma", "--record", "a", "--replay", "b"])).toThrow("--record and --replay cannot be used together");
    expect(() => parseArgv(["check", "a.luma", "--replay", "b"])).toThrow("luma check takes no run options (only --format): it parses and checks FILE only");
    const r = runLuma([EXAMPLE, "--record", "a.jsonl", "--replay", CASSETTE]);
    expect(r.exitCode).toBe(64);
  });

  test("the shipped agent example runs offline from its cassette with no API key; --trace shows ask and provider events", () => {
    const r = runLuma([EXAMPLE, "--replay", CASSETTE, "--trace", "-"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("words: 2, sum: 42\ntext_stats counted 2 words in 'Luma DSL'; calculate added 20 and 22.\n");
    const events = r.stderr.trim().split("\n").map((l) => JSON.parse(l));
    expect(events.map((e) => e.event)).toEqual(["provider.request", "tool.call", "tool.call", "provider.request", "ask", "run.usage"]);
    expect(events[4]).toMatchObject({ agent: "MultiToolWorker", model: "GPT54Mini", provider: "openai", tool_calls: 2, tokens_in: 130, tokens_out: 17, outcome: "ok" });
  });

  test("without --replay and without the key, the ask fails naming the variable (exit 1)", () => {
    const r = runLuma([EXAMPLE]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^Error: \[PROVIDER_ERROR\] Model 'GPT54Mini' \(provider "openai"\) needs an API key: environment variable OPENAI_API_KEY is not set at examples\/041_multi_tool_worker\.luma:(\d+:\d+)\n {2}--> examples\/041_multi_tool_worker\.luma:\1\n/);
  });

  test("a missing cassette rejects the program before it runs (exit 2)", () => {
    const r = runLuma([EXAMPLE, "--replay", "no-such.jsonl"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`Error: cannot read cassette no-such.jsonl: no such file (named by --replay; looked at ${join(REPO, "no-such.jsonl")})\n  = code E0605 (luma explain E0605)\n`);
  });

  test("--record through the binary against a live (fake) provider, then --replay of that file", async () => {
    const fake = await fakeProvider();
    const canary = "sk-canary-cli-0123456789";
    fake.expectKey(canary);
    fake.script([
      { toolCalls: [{ name: "text_stats", args: { text: "Luma DSL" } }, { name: "calculate", args: { a: 20, b: 22, operation: "add" } }] },
      { json: { words: 2, sum: 42, note: "live" } },
    ]);
    const dir = mkdtempSync(join(tmpdir(), "luma-cli-record-"));
    const cassette = join(dir, "c.jsonl");
    const rec = await lumaAsync([EXAMPLE, "--record", cassette], { OPENAI_API_KEY: canary, LUMA_BASE_URL_GPT54MINI: fake.baseUrl("openai") });
    expect(rec.stderr).toBe("");
    expect(rec.stdout).toBe("words: 2, sum: 42\nlive\n");
    expect(fake.requests.length).toBe(2);
    const text = readFileSync(cassette, "utf8");
    expect(text.trim().split("\n").length).toBe(2);
    expect(text).not.toContain(canary);
    const rep = runLuma([EXAMPLE, "--replay", cassette]);
    expect(rep.stdout).toBe(rec.stdout);
    expect(rep.exitCode).toBe(0);
  });
});
