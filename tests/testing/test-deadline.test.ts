/**
 * `luma test`'s deadline per test, through the real binary: a test that never ends — a busy
 * `while`, one inside `try`/`catch`, runaway recursion, nested `for`s over big ranges, a tool that never answers (whether
 * or not its handler listens to its AbortSignal) — is stopped, fails naming the test and the
 * deadline, and the runner goes on to the next test; exit 1, and the JUnit report says so.
 * A tool module that never finishes loading is held to the same deadline.
 * `--timeout MS` sets the deadline, 30 s by default.
 *
 * Each run is spawned with a guard that kills it after a generous time, so a runner with no
 * deadline fails these tests instead of hanging the suite.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-deadline-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** `luma ARGS` in `cwd`, killed after `guardMs` (then `killed` is true): a hang fails, it does not block. */
async function runGuarded(args: string[], cwd: string, guardMs: number) {
  const p = Bun.spawn([ensureBinary(), ...args], {
    cwd,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let killed = false;
  const guard = setTimeout(() => {
    killed = true;
    p.kill("SIGKILL");
  }, guardMs);
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(guard);
  return { stdout, stderr, exitCode, killed };
}

const deadlineMessage = (name: string, ms: number) =>
  `Error: [RUNTIME_ERROR] test "${name}" did not finish within its deadline of ${ms} ms and was stopped (luma test --timeout MS sets the deadline)`;

const SLOW_TOOLS = `
export const lumaTools = {
  // Never answers and ignores its AbortSignal: the run must not wait for it.
  deaf: () => new Promise(() => {}),
  // Never answers until its AbortSignal fires.
  polite: (_input: unknown, signal?: AbortSignal) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason))),
};
`;

const SLOW_DECLS = `
schema Out { ok: bool }
tool deaf() -> Out { side_effects: "none"  timeout: 600000 }
tool polite() -> Out { side_effects: "none"  timeout: 600000 }
agent Slow {
  tools: [deaf, polite]
  tool_timeout_max: 600000
  fn deaf() -> Out { return tool deaf({}) }
  fn polite() -> Out { return tool polite({}) }
}
fn id(x: int) -> int { return x }
`;

describe("luma test: a deadline per test", () => {
  test("a busy while, one inside try/catch, runaway recursion and nested for loops each fail at --timeout naming the test; the next test runs; exit 1; JUnit says so", async () => {
    const dir = project({
      "calc.luma": `fn fib(n: int) -> int {\n  if n < 2 { return n }\n  return fib(n - 1) + fib(n - 2)\n}\n`,
      "calc.test.luma": `test "spins" {
  while true {}
}
test "spins inside try" {
  try {
    while true { x = 1 }
  } catch e {
    print("the deadline was caught")
  }
}
test "recurses" {
  assert fib(60) == 1
}
test "nested for" {
  for i in range(10000000) {
    for j in range(10000000) { x = j }
  }
}
test "after them" {
  assert fib(10) == 55
}
`,
    });
    const r = await runGuarded(["test", "--timeout", "1500", "--format", "junit", "report.xml"], dir, 120_000);
    expect(r.killed).toBe(false);
    for (const name of ["spins", "spins inside try", "recurses", "nested for"]) {
      expect(r.stdout).toContain(`FAIL calc.test.luma › ${name}\n    ${deadlineMessage(name, 1500)}\n`);
    }
    // No `catch` holds the deadline.
    expect(r.stdout).not.toContain("the deadline was caught");
    expect(r.stdout).toContain("pass calc.test.luma › after them\n");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("1 passed, 4 failed");
    expect(r.stdout + r.stderr).not.toContain("    at "); // no stack trace
    expect(r.exitCode).toBe(1);
    const xml = readFileSync(join(dir, "report.xml"), "utf8");
    expect(xml).toContain('tests="5" failures="4"');
    expect(xml).toContain(`<testcase classname="calc.test.luma" name="spins" `);
    expect(xml).toContain(`<failure message="Error: [RUNTIME_ERROR] test &quot;recurses&quot; did not finish within its deadline of 1500 ms`);
  }, 150_000);

  test("a test waiting on a tool that never answers is stopped, whether the handler listens to its AbortSignal or not", async () => {
    const dir = project({
      "luma.config.json": JSON.stringify({ tool_modules: [{ path: "./tools.ts", version: "1.0.0" }] }),
      "tools.ts": SLOW_TOOLS,
      "slow.luma": SLOW_DECLS,
      "slow.test.luma": `test "deaf tool" {\n  Slow.deaf()\n}\ntest "polite tool" {\n  Slow.polite()\n}\ntest "after them" {\n  assert id(2) == 2\n}\n`,
    });
    const r = await runGuarded(["test", "--timeout", "1000"], dir, 120_000);
    expect(r.killed).toBe(false);
    expect(r.stdout).toContain(`FAIL slow.test.luma › deaf tool\n    ${deadlineMessage("deaf tool", 1000)}\n`);
    expect(r.stdout).toContain(`FAIL slow.test.luma › polite tool\n    ${deadlineMessage("polite tool", 1000)}\n`);
    expect(r.stdout).toContain("pass slow.test.luma › after them\n");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("1 passed, 2 failed");
    expect(r.exitCode).toBe(1);
  }, 150_000);

  test("a tool module whose loading never settles fails each test at its deadline; the run ends (exit 1)", async () => {
    const dir = project({
      "luma.config.json": JSON.stringify({ tool_modules: [{ path: "./tools.ts", version: "1.0.0" }] }),
      "tools.ts": `await new Promise(() => {});\nexport const lumaTools = { a: () => ({ ok: true }) };\n`,
      "stuck.luma": `schema Out { ok: bool }\ntool a() -> Out { side_effects: "none" }\n`,
      "stuck.test.luma": `test "first" {\n  tool a({})\n}\ntest "second" {\n  assert true\n}\n`,
    });
    const r = await runGuarded(["test", "--timeout", "1000"], dir, 120_000);
    expect(r.killed).toBe(false);
    expect(r.stdout).toContain(`FAIL stuck.test.luma › first\n    ${deadlineMessage("first", 1000)}\n`);
    expect(r.stdout).toContain(`FAIL stuck.test.luma › second\n    ${deadlineMessage("second", 1000)}\n`);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("0 passed, 2 failed");
    expect(r.exitCode).toBe(1);
  }, 150_000);

  test("without --timeout the deadline is 30000 ms", async () => {
    // A tool that never answers (no CPU spent while waiting out the default).
    const dir = project({
      "luma.config.json": JSON.stringify({ tool_modules: [{ path: "./tools.ts", version: "1.0.0" }] }),
      "tools.ts": SLOW_TOOLS,
      "slow.luma": SLOW_DECLS,
      "slow.test.luma": `test "waits" {\n  Slow.polite()\n}\n`,
    });
    const r = await runGuarded(["test"], dir, 150_000);
    expect(r.killed).toBe(false);
    expect(r.stdout).toContain(`FAIL slow.test.luma › waits\n    ${deadlineMessage("waits", 30000)}\n`);
    expect(r.exitCode).toBe(1);
  }, 180_000);

  test("--timeout takes a whole number of ms from 1 to 2147483647, else a usage error (exit 64)", () => {
    const dir = project({ "a.luma": "", "a.test.luma": `test "t" { assert true }\n` });
    for (const bad of ["0", "-5", "1.5", "abc", "2147483648"]) {
      const r = runLuma(["test", "--timeout", bad], { cwd: dir });
      expect(r.exitCode).toBe(64);
      expect(r.stderr).toContain(`--timeout of luma test must be a whole number of ms from 1 to 2147483647 (got '${bad}')`);
    }
    const ok = runLuma(["test", "--timeout=2147483647"], { cwd: dir });
    expect(ok.stdout).toBe("pass a.test.luma › t\n1 passed, 0 failed\n");
    expect(ok.exitCode).toBe(0);
  });
});
