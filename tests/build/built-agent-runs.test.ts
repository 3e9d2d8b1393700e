/**
 * Issue #13 "Done when": examples built with `dist/luma build`, each output copied alone into
 * an empty directory and run with a PATH holding no `bun` — same stdout, stderr and exit code
 * as `luma` running the source. Builds are slow (a ~110 MB file each), so each is built once
 * in beforeAll and shared by the tests below.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";
import { isolate, lumaBuild, removeAll, runIsolated, tempDir, type Isolated } from "./built-agent-support";

const CASSETTE = join(REPO, "examples/cassettes/041_multi_tool_worker.jsonl");
const SECRET = "sk-test-built-agent-secret-7f3a91c2";
const CONTEXT_SECRET = "db-password-built-agent-5be0d7";
const STORE_SECRET = "store-passphrase-built-agent-c81f0a";
const contextEnv = { DB_USER: "app", DB_PASSWORD: "example-only-secret", DB_PORT: "5432", DB_TLS: "true" };

let out: string;
const agents: Record<string, Isolated> = {};
const builds: Record<string, ReturnType<typeof lumaBuild>> = {};

beforeAll(() => {
  out = tempDir("luma-build-out-");
  const build = (name: string, args: string[], env: Record<string, string> = {}) => {
    builds[name] = lumaBuild([...args, "-o", join(out, name)], env);
    if (builds[name].exitCode === 0) agents[name] = isolate(join(out, name));
  };
  build("agent018", ["examples/018_direct_tool.luma"]);
  build("agent041", ["examples/041_multi_tool_worker.luma"]);
  build("agent023", ["examples/023_idempotency_file_store.luma", "--config", "examples/idempotency/luma.config.json"], {
    LUMA_IDEMPOTENCY_KEY: STORE_SECRET,
  });
  build("agent033", ["examples/033_strict_computed_specifier.luma", "--config", "examples/strict/luma.config.json"]);
  // Built with every kind of secret in the environment: API keys, a credential, context values.
  build("agent025", ["examples/025_needs_contexts.luma", "--config", "examples/contexts/luma.config.json"], {
    OPENAI_API_KEY: SECRET,
    ANTHROPIC_API_KEY: SECRET,
    DB_PASSWORD: CONTEXT_SECRET,
    LUMA_APPROVED_TOOLS: "write_secret_tool",
  });
}, 180_000);

afterAll(() => removeAll(out, ...Object.values(agents).flatMap((a) => [a.dir, a.path])));

const same = (name: string, agentArgs: string[], lumaArgs: string[], env: Record<string, string> = {}) => {
  expect(builds[name].stderr).toBe("");
  expect(builds[name].exitCode).toBe(0);
  const built = runIsolated(agents[name], agentArgs, env);
  const direct = runLuma(lumaArgs, { env });
  expect({ exit: built.exitCode, stdout: built.stdout, stderr: built.stderr }).toEqual({
    exit: direct.exitCode,
    stdout: direct.stdout,
    stderr: direct.stderr,
  });
  return built;
};

describe("luma build: OUT runs the program exactly as `luma FILE …` would (alone, no bun on PATH)", () => {
  test("the isolated run really has no bun: PATH is an empty directory, the directory holds only OUT", () => {
    const a = agents.agent018;
    expect(Bun.which("bun", { PATH: a.path })).toBeNull();
    expect(runIsolated(a, []).exitCode).toBe(0);
  });

  test("examples/018_direct_tool.luma: same stdout, stderr and exit code", () => {
    const r = same("agent018", [], ["examples/018_direct_tool.luma"]);
    expect(r.stdout).toContain("6 * 7 = 42");
  });

  test("examples/041_multi_tool_worker.luma with --replay CASSETTE: same output, offline, no API key", () => {
    const r = same("agent041", ["--replay", CASSETTE], ["examples/041_multi_tool_worker.luma", "--replay", CASSETTE]);
    expect(r.stdout).toContain("words: 2, sum: 42");
  });

  test("`--trace -` keeps working at run time: the same events (times aside) on stderr", () => {
    const events = (stderr: string) =>
      stderr.trim().split("\n").map((line) => ({ ...JSON.parse(line), ts: undefined, duration_ms: undefined }));
    const built = runIsolated(agents.agent041, ["--replay", CASSETTE, "--trace", "-"]);
    const direct = runLuma(["examples/041_multi_tool_worker.luma", "--replay", CASSETTE, "--trace", "-"]);
    expect(built.exitCode).toBe(0);
    expect(built.stdout).toBe(direct.stdout);
    expect(events(built.stderr)).toEqual(events(direct.stderr));
    expect(events(built.stderr).map((e) => e.event)).toContain("tool.call");
  });

  test("OUT [ARGS…] gives the program its args, `--` included, as `luma FILE ARGS…`", () => {
    // 018 ignores args; the point is that they do not break the run nor reach Luma's parser.
    same("agent018", ["--", "--luma-manifest", "x"], ["examples/018_direct_tool.luma", "--", "--luma-manifest", "x"]);
  });
});

describe("luma build: the strict policy still applies to embedded modules at run time", () => {
  test("033: a computed require('f'+'s') is refused in the VM context when called (TOOL_PERMISSION_DENIED), as with luma", () => {
    const r = same("agent033", [], ["examples/033_strict_computed_specifier.luma", "--config", "examples/strict/luma.config.json"]);
    expect(r.stdout).toContain("TOOL_PERMISSION_DENIED");
    expect(r.stdout).toContain(`[allow_builtins] loads builtin 'fs'`);
  });
});

describe("luma build: what stays at run time stays at run time (environment, config override)", () => {
  test("tool_contexts come from the run's environment, not the build's", () => {
    const args = ["examples/025_needs_contexts.luma", "--config", "examples/contexts/luma.config.json"];
    const r = same("agent025", [], args, contextEnv);
    expect(r.stdout).toContain('"owner":"app"');
    // Without the variables at run time the context is missing: nothing was captured at build.
    const bare = runIsolated(agents.agent025, []);
    expect(bare.exitCode).toBe(1);
    expect(bare.stderr).toContain("environment variable DB_USER is not set");
  });

  test("the idempotency store opens at run time, in the working directory, with the run's LUMA_IDEMPOTENCY_KEY", () => {
    const a = agents.agent023;
    const without = runIsolated(a, []);
    expect(without.exitCode).toBe(2);
    expect(without.stderr).toContain("needs the passphrase in LUMA_IDEMPOTENCY_KEY, which is not set");
    const r = runIsolated(a, [], { LUMA_IDEMPOTENCY_KEY: "a-run-time-passphrase" });
    const golden = readFileSync(join(REPO, "examples/expected/023_idempotency_file_store.out"), "utf8");
    expect(`exit: ${r.exitCode}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`).toBe(golden);
    expect(existsSync(join(a.dir, ".luma-idempotency.json"))).toBe(true);
  });

  test("no secret set in the environment at build time appears in the output file", () => {
    const bytes = readFileSync(join(out, "agent025"));
    for (const secret of [SECRET, CONTEXT_SECRET, "write_secret_tool"]) expect(bytes.indexOf(secret)).toBe(-1);
    expect(readFileSync(join(out, "agent023")).indexOf(STORE_SECRET)).toBe(-1);
    // The check can see text: the program's own source is embedded.
    expect(bytes.indexOf("find_row")).toBeGreaterThan(-1);
  });

  test("--config at run time replaces the embedded config; one that changes tool_modules is refused (exit 2)", () => {
    const a = agents.agent025;
    Bun.write(join(a.dir, "same.json"), readFileSync(join(REPO, "examples/contexts/luma.config.json")));
    expect(runIsolated(a, ["--config", "same.json"], contextEnv).stdout).toContain('"owner":"app"');
    Bun.write(join(a.dir, "other.json"), JSON.stringify({ tool_modules: ["./other.ts"] }));
    const r = runIsolated(a, ["--config", "other.json"], contextEnv);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("other.json: its tool_modules or tool_module_policy differ from the ones this agent was built with");
    expect(r.stdout).toBe("");
  });
});

describe("luma build: every run option of `luma FILE` is honoured by OUT (--journal, --run-id, --usage)", () => {
  test("--usage prints the same per-model usage table on stderr as `luma FILE --usage`", () => {
    const r = same("agent041", ["--replay", CASSETTE, "--usage"], ["examples/041_multi_tool_worker.luma", "--replay", CASSETTE, "--usage"]);
    expect(r.stderr).toContain("GPT54Mini  openai       1         2    130");
  });

  test("--journal writes the run to the journal (`luma runs` lists it), and --run-id resumes it with no model asked and no API key", () => {
    const a = agents.agent041;
    const first = runIsolated(a, ["--replay", CASSETTE, "--journal", "runs.sqlite"]);
    expect(first.exitCode).toBe(0);
    const runId = /^run: (\S+)$/m.exec(first.stderr)?.[1];
    expect(runId).toBeDefined();
    const listed = runLuma(["runs", "--journal", join(a.dir, "runs.sqlite"), "--format", "json"]);
    expect(JSON.parse(listed.stdout).runs).toMatchObject([{ run: runId, status: "finished" }]);
    // No cassette, no API key, and the model's URL a closed port: only the journal can answer
    // the ask, so the whole output coming again proves the run was resumed from it (a finished
    // run re-executes nothing, and a request it does not send needs no key).
    const offline = { LUMA_BASE_URL_GPT54MINI: "http://127.0.0.1:9" };
    const resumed = runIsolated(a, ["--journal", "runs.sqlite", "--run-id", runId!], offline);
    expect({ exit: resumed.exitCode, stdout: resumed.stdout, stderr: resumed.stderr }).toEqual({ exit: 0, stdout: first.stdout, stderr: "" });
    expect(first.stdout).toContain("words: 2, sum: 42");
  });

  test("a journaled run that must send a request with no API key fails as `luma FILE` does: the missing-key error at the ask (exit 1)", () => {
    const journals = tempDir("luma-build-journal-");
    try {
      const run = (journal: string) => ["--journal", join(journals, journal), "--run-id", "keyless-1"];
      const offline = { LUMA_BASE_URL_GPT54MINI: "http://127.0.0.1:9" };
      const built = runIsolated(agents.agent041, run("built.sqlite"), offline);
      const direct = runLuma(["examples/041_multi_tool_worker.luma", ...run("direct.sqlite")], { env: offline });
      expect({ exit: built.exitCode, stdout: built.stdout, stderr: built.stderr }).toEqual({ exit: direct.exitCode, stdout: direct.stdout, stderr: direct.stderr });
      expect(built.exitCode).toBe(1);
      expect(built.stderr).toContain(`Model 'GPT54Mini' (provider "openai") needs an API key: environment variable OPENAI_API_KEY is not set at examples/041_multi_tool_worker.luma:`);
    } finally {
      removeAll(journals);
    }
  });

  test("a bad --run-id, or one without a journal, is refused as `luma FILE` refuses it (exit 2, nothing run)", () => {
    for (const args of [["--run-id", "x"], ["--journal", "j.sqlite", "--run-id", "no spaces; allowed"]]) {
      const r = same("agent018", args, ["examples/018_direct_tool.luma", ...args]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe("");
    }
  });

  test("OUT --help lists the run-time options, --journal, --run-id and --usage among them", () => {
    const help = runIsolated(agents.agent041, ["--help"]).stdout;
    for (const option of ["--config", "--trace", "--record", "--replay", "--journal", "--run-id", "--usage"]) expect(help).toContain(`  ${option} `);
    expect(help).not.toContain("--tool-module");
  });
});
