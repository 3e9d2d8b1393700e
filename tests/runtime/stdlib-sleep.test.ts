/**
 * Issue #28 §2, `sleep(ms)` through `dist/luma`: it waits and returns null; Ctrl-C during a
 * long sleep ends the run (status 130) and a test's deadline ends a sleeping test, each
 * without waiting for the sleep to end. Each run is guarded: a sleep that could not be
 * stopped fails these tests (the guard kills it) instead of hanging the suite.
 * In `luma test`, stdin is empty: `read_line()` is null.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-sleep-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** `luma ARGS`, sent `signal` once its stdout holds `ready` (if given), killed after `guardMs`. */
async function runGuarded(args: string[], cwd: string, guardMs: number, ready?: { text: string; signal: NodeJS.Signals }) {
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
  let stdout = "";
  const reader = p.stdout.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    stdout += decoder.decode(value);
    if (ready && stdout.includes(ready.text)) {
      p.kill(ready.signal);
      ready = undefined;
    }
  }
  const [stderr, exitCode] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  clearTimeout(guard);
  return { stdout, stderr, exitCode, killed };
}

describe("issue #28 §2: sleep", () => {
  test("sleep waits and gives null; a time out of 0 to 24 h is a RUNTIME_ERROR", () => {
    const dir = project({ "main.luma": `print(sleep(20))\nprint("after")\n` });
    const r = runLuma(["main.luma"], { cwd: dir });
    expect(r.stdout).toBe("null\nafter\n");
    writeFileSync(join(dir, "main.luma"), `n: int = 0 - 1\nsleep(n)\n`);
    expect(runLuma(["main.luma"], { cwd: dir }).stderr).toContain("sleep() takes 0 to 86400000 ms, got -1 at main.luma:2:1");
  });

  test("Ctrl-C during a long sleep ends the run at once with status 130", async () => {
    const dir = project({ "main.luma": `print("sleeping")\nsleep(600000)\nprint("woke")\n` });
    const r = await runGuarded(["main.luma"], dir, 60_000, { text: "sleeping", signal: "SIGINT" });
    expect(r.killed).toBe(false);
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toBe("sleeping\n");
  });

  test("a test's deadline ends a sleeping test; the next test runs; in luma test stdin is empty", async () => {
    const dir = project({
      "main.luma": `fn nap(ms: int) -> string {\n  sleep(ms)\n  return "rested"\n}\n`,
      "main.test.luma": `test "naps" {\n  sleep(600000)\n}\ntest "short nap" {\n  assert nap(10) == "rested"\n  assert read_line() == null\n  assert read_all() == ""\n}\n`,
    });
    const r = await runGuarded(["test", "--timeout", "1500"], dir, 60_000);
    expect(r.killed).toBe(false);
    expect(r.stdout).toContain(`FAIL main.test.luma › naps\n    Error: [RUNTIME_ERROR] test "naps" did not finish within its deadline of 1500 ms and was stopped`);
    expect(r.stdout).toContain("pass main.test.luma › short nap\n");
    expect(r.exitCode).toBe(1);
  });
});
