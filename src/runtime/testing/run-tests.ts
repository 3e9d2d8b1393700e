/**
 * Runs the `test` blocks of one checked program (`luma test`), each one isolated: a test is
 * a start of the program of its own (runtime/start-program.ts) whose body is the test's
 * statements — fresh in-memory idempotency store, cache, breaker, rate limits and handler
 * counts; no journal — so no test sees what another did, and the order of tests does not
 * matter.
 *
 * `luma test` never touches the network: every model request is answered by the test's
 * `mock` of that model, else by its cassette (`replay "…"` in the test, else the file's),
 * else it fails the test with a PROVIDER_ERROR that says how to script the model.
 *
 * `mock tool name [answers]` answers a tool's calls in place of its handler (tool-stubs.ts).
 *
 * A test passes when its body runs to the end. Its output (`print`, warnings) is kept and
 * returned, so the CLI can show it under a failure.
 *
 * Each test has a deadline (`timeoutMs`, `luma test --timeout MS`, 30 s by default), from its
 * start-up to its end: a test still running then — a `while true {}`, runaway recursion, a
 * tool that never answers — is stopped (run/run-deadline.ts) and fails with a RUNTIME_ERROR
 * naming the test and the deadline, and the next test runs.
 */
import { dirname, resolve } from "node:path";
import type { Program, TestDecl } from "../../syntax/ast";
import { runtimeError } from "../../diagnostics/luma-error";
import { loadCassette, replayTransport } from "../providers/cassette";
import type { Transport } from "../providers/transport";
import { startProgram } from "../start-program";
import type { OpenRemoteTools } from "../tools/registry/registry-types";
import { scriptedModels } from "./mock-turns";
import { scriptedTransport } from "./scripted-model";
import { toolStubs } from "./tool-stubs";

export interface TestResult {
  file: string;
  name: string;
  passed: boolean;
  /** Wall time, for reports (JUnit); nothing asserts on it. */
  durationMs: number;
  /** Why it failed: an assertion's RUNTIME_ERROR, any other LumaError. */
  error?: unknown;
  /** What the test printed, stdout and stderr in order. */
  output: string[];
}

export interface RunTestsOptions {
  file: string;
  cwd: string;
  env: Record<string, string | undefined>;
  sourceOf: (file: string) => string | undefined;
  toolModules: string[];
  configPath?: string;
  /** Only tests whose name contains this text. */
  filter?: string;
  /** Each test's deadline, ms (DEFAULT_TEST_TIMEOUT_MS when not given). */
  timeoutMs?: number;
  onResult?: (result: TestResult) => void;
  /** The MCP client, plugged in by the CLI (mcp/open-mcp-tools.ts), for `mcp:` tools. */
  openRemoteTools?: OpenRemoteTools;
}

/** `luma test`'s deadline per test when `--timeout` is not given. */
export const DEFAULT_TEST_TIMEOUT_MS = 30_000;

export async function runTests(program: Program, opts: RunTestsOptions): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const test of program.tests ?? []) {
    if (opts.filter !== undefined && !test.name.includes(opts.filter)) continue;
    const result = await runOneTest(program, test, opts);
    results.push(result);
    opts.onResult?.(result);
  }
  return results;
}

async function runOneTest(program: Program, test: TestDecl, opts: RunTestsOptions): Promise<TestResult> {
  const output: string[] = [];
  const t0 = performance.now();
  let error: unknown;
  try {
    const offline = testTransport(program, test, opts);
    const ms = opts.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
    const deadline = { ms, error: () => runtimeError("RUNTIME_ERROR", `test "${test.name}" did not finish within its deadline of ${ms} ms and was stopped (luma test --timeout MS sets the deadline)`) };
    await startProgram(
      { ...program, body: test.body, tests: undefined },
      {
        file: opts.file,
        args: [],
        toolModules: opts.toolModules,
        configPath: opts.configPath,
        cwd: opts.cwd,
        env: opts.env,
        stdout: (line) => void output.push(line),
        stderr: (line) => void output.push(line),
        sourceOf: opts.sourceOf,
        interactive: false,
        testRun: { offline, deadline, toolStubs: toolStubs(program, test, opts.sourceOf) },
        openRemoteTools: opts.openRemoteTools,
      },
    );
  } catch (e) {
    error = e;
  }
  return { file: opts.file, name: test.name, passed: error === undefined, durationMs: performance.now() - t0, error, output };
}

/** Mocks first, then the cassette, then a clear failure: never the network. */
function testTransport(program: Program, test: TestDecl, opts: RunTestsOptions): Transport {
  const replay = test.replay ?? program.replay;
  const fallback: Transport = replay
    ? replayTransport(
        loadCassette({ path: resolve(opts.cwd, dirname(opts.file), replay.path), label: replay.path, namedBy: `replay "${replay.path}" in ${replay.span.file}` }),
        replay.path,
      )
    : async (_req, info) => {
        throw runtimeError(
          "PROVIDER_ERROR",
          `luma test does not call providers: model ${info.decl} has no \`mock ${info.decl} […]\` in test "${test.name}", and no cassette is named (\`replay "cassettes/….jsonl"\`)`,
        );
      };
  const models = scriptedModels(program, test.mocks, opts.sourceOf);
  return models.length > 0 ? scriptedTransport(models, fallback) : fallback;
}
