/**
 * `luma test` through the real binary: test blocks, assert (with both sides of a
 * comparison), calls(), scripted models (mock), cassettes (replay), isolation, --filter,
 * the summary line, exit codes and the JUnit report.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A project folder with these files (a tool module `tools.ts` and a config loading it by default). */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-test-"));
  dirs.push(dir);
  const all: Record<string, string> = {
    "luma.config.json": JSON.stringify({ tool_modules: [{ path: "./tools.ts", version: "1.0.0" }] }),
    "tools.ts": `let n = 0;
export const lumaTools = {
  add: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
  flaky: () => { n++; if (n % 2 === 1) { const e: any = new Error("try again"); e.code = "BUSY"; e.retryable = true; throw e; } return { ok: true }; },
};`,
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const DECLS = `
schema Sum { sum: float }
tool add(a: float, b: float) -> Sum { side_effects: "none"  cache: true }
schema Ok { ok: bool }
tool flaky() -> Ok { side_effects: "none"  retries: 2  retry_backoff: "fixed"  retry_delay: 1 }
fn double(x: int) -> int { return x * 2 }
print("top-level code ran")
`;

describe("luma test: test blocks, assert, summary, exit code", () => {
  test("passing tests print one line each and `N passed, N failed`; exit 0; top-level statements do not run", () => {
    const dir = project({
      "calc.luma": DECLS,
      "calc.test.luma": `test "double doubles" {\n  assert double(2) == 4\n}\ntest "tools run" {\n  s = tool add({ a: 1, b: 2 })\n  assert s.sum == 3, "one plus two"\n}\n`,
    });
    const r = runLuma(["test"], { cwd: dir });
    expect(r.stdout).toBe("pass calc.test.luma › double doubles\npass calc.test.luma › tools run\n2 passed, 0 failed\n");
    expect(r.stdout + r.stderr).not.toContain("top-level code ran");
    expect(r.exitCode).toBe(0);
  });

  test("a failing assert reports location, source line (once) and both sides; exit 1", () => {
    const dir = project({
      "calc.luma": DECLS,
      "calc.test.luma": `test "wrong" {\n  x = double(3)\n  assert x == 7, "three doubled"\n}\ntest "right" {\n  assert double(1) == 2\n}\n`,
    });
    const r = runLuma(["test", "calc.test.luma"], { cwd: dir });
    expect(r.stdout).toContain(
      [
        "FAIL calc.test.luma › wrong",
        "    Error: [RUNTIME_ERROR] assertion failed at calc.test.luma:3:3: three doubled",
        "      left:  6",
        "      right: 7",
        "      --> calc.test.luma:3:3",
        '      3 |   assert x == 7, "three doubled"',
        "        |   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "",
      ].join("\n"),
    );
    // The source line once: in the excerpt, not repeated in the message.
    expect(r.stdout.split('assert x == 7, "three doubled"').length - 1).toBe(1);
    expect(r.stdout).toContain("pass calc.test.luma › right");
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("1 passed, 1 failed");
    expect(r.exitCode).toBe(1);
  });

  test("--filter TEXT runs only the tests whose name contains TEXT; nothing matched is a failure (exit 1)", () => {
    const dir = project({ "calc.luma": DECLS, "calc.test.luma": `test "alpha" { assert true }\ntest "beta" { assert true }\n` });
    const r = runLuma(["test", "--filter", "bet"], { cwd: dir });
    expect(r.stdout).toBe("pass calc.test.luma › beta\n1 passed, 0 failed\n");
    const none = runLuma(["test", "--filter", "zzz"], { cwd: dir });
    expect(none.stdout).toContain('0 passed, 0 failed (no test found matching --filter "zzz")');
    expect(none.exitCode).toBe(1);
  });

  test("a file that does not check fails with its diagnostic, and the other files still run", () => {
    const dir = project({
      "a.test.luma": `test "bad" {\n  assert "yes"\n}\n`,
      "b.test.luma": `test "good" { assert 1 < 2 }\n`,
    });
    const r = runLuma(["test"], { cwd: dir });
    expect(r.stdout).toContain("FAIL a.test.luma › (the file does not load)");
    expect(r.stdout).toContain(`error[E0318]: The condition of 'assert' must be a bool, not '"yes"'.`);
    expect(r.stdout).toContain("pass b.test.luma › good");
    expect(r.exitCode).toBe(1);
  });
});

describe("luma test: calls() and isolation", () => {
  test('calls("tool") counts handler runs in the test: a cache hit is not a run, each retry is', () => {
    const dir = project({
      "calc.luma": DECLS,
      "calc.test.luma": `test "cache" {
  tool add({ a: 1, b: 1 })
  tool add({ a: 1, b: 1 })
  assert calls("add") == 1
}
test "retries" {
  r = tool flaky({})
  assert r.ok
  assert calls("flaky") == 2
}
test "fresh: the cache and counts of the first test are gone" {
  tool add({ a: 1, b: 1 })
  assert calls("add") == 1
  assert calls("flaky") == 0
}
`,
    });
    const r = runLuma(["test"], { cwd: dir });
    expect(r.stdout).toContain("3 passed, 0 failed");
    expect(r.exitCode).toBe(0);
  });
});

const MODEL_DECLS = `
schema Sum { sum: float }
tool add(a: float, b: float) -> Sum { side_effects: "none" }
schema Answer { total: float  note: string }
model M { provider: "openai"  name: "gpt-5.4-mini" }
agent Adder {
  model: M
  tools: [add]
  fn run(q: string) -> Answer { return ask q -> Answer }
}
`;

describe("luma test: offline models", () => {
  test("a scripted model (mock): its tool calls run through the real pipeline, then its answer is validated", () => {
    const dir = project({
      "agent.luma": MODEL_DECLS,
      "agent.test.luma": `test "scripted" {
  mock M [
    { calls: [{ tool: "add", input: { a: 2, b: 3 } }, { tool: "add", input: { a: 1, b: 1 } }] },
    { answer: { total: 7, note: "added" } },
  ]
  a = Adder.run("add things")
  assert a.total == 7
  assert calls("add") == 2
}
test "a bad scripted answer fails like a bad model answer" {
  mock M [{ answer: { total: "seven" } }, { answer: { total: "x" } }, { answer: { total: "y" } }]
  a = Adder.run("q")
}
test "no mock and no cassette: a clear error, never the network" {
  a = Adder.run("q")
}
`,
    });
    const r = runLuma(["test"], { cwd: dir, env: { OPENAI_API_KEY: undefined } });
    expect(r.stdout).toContain("pass agent.test.luma › scripted");
    expect(r.stdout).toContain("FAIL agent.test.luma › a bad scripted answer fails like a bad model answer");
    expect(r.stdout).toContain("ASK_OUTPUT_INVALID");
    expect(r.stdout).toContain("luma test does not call providers: model M has no `mock M […]`");
    expect(r.stdout).toContain("1 passed, 2 failed");
    expect(r.exitCode).toBe(1);
  });

  test("a mock that runs out of turns, or is not constant, fails the test naming the mock", () => {
    const dir = project({
      "agent.luma": MODEL_DECLS,
      "agent.test.luma": `test "short" {
  mock M [{ calls: [{ tool: "add", input: { a: 1, b: 2 } }] }]
  Adder.run("q")
}
test "computed" {
  x = 3
  mock M [{ answer: { total: x, note: "n" } }]
  Adder.run("q")
}
`,
    });
    const r = runLuma(["test"], { cwd: dir });
    expect(r.stdout).toMatch(/mock M \(agent\.test\.luma:2:3\) scripts 1 turn\(s\); the ask sent request 2/);
    expect(r.stdout).toContain("mock M: turns are written with constants only");
    expect(r.stdout).toContain("agent.test.luma:7:30");
    expect(r.exitCode).toBe(1);
  });

  test('replay "cassette" in a test answers from a recorded cassette, offline with no key', () => {
    const dir = project({
      "luma.config.json": JSON.stringify({ tool_modules: [{ path: "./tools.ts", version: "1.0.0" }] }),
      "tools.ts": readFileSync(join(REPO, "examples/tools/example-tools.ts"), "utf8").replace(/import \{ LumaToolError \} from "luma";/, 'import { LumaToolError } from "luma";'),
    });
    copyFileSync(join(REPO, "examples/041_multi_tool_worker.luma"), join(dir, "worker.luma"));
    mkdirSync(join(dir, "cassettes"));
    copyFileSync(join(REPO, "examples/cassettes/041_multi_tool_worker.jsonl"), join(dir, "cassettes/w.jsonl"));
    writeFileSync(join(dir, "worker.test.luma"), `test "recorded" {\n  replay "cassettes/w.jsonl"\n  r = MultiToolWorker.run()\n  assert r.sum == 42\n  assert calls("calculate") == 1\n}\n`);
    const r = runLuma(["test", "worker.test.luma"], { cwd: dir, env: { OPENAI_API_KEY: undefined } });
    expect(r.stdout).toBe("pass worker.test.luma › recorded\n1 passed, 0 failed\n");
    expect(r.exitCode).toBe(0);
  });
});

describe("luma test --format junit FILE", () => {
  test("writes one testcase per test, failures with their text, XML-escaped", () => {
    const dir = project({ "x.test.luma": `test "ok <1>" { assert true }\ntest "bad & sad" {\n  assert 1 == 2\n}\n` });
    const r = runLuma(["test", "--format", "junit", "report.xml"], { cwd: dir });
    expect(r.exitCode).toBe(1);
    const xml = readFileSync(join(dir, "report.xml"), "utf8");
    expect(xml).toStartWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="luma test" tests="2" failures="1"');
    expect(xml).toContain('<testcase classname="x.test.luma" name="ok &lt;1&gt;"');
    expect(xml).toContain('name="bad &amp; sad"');
    expect(xml).toContain("<failure message=\"Error: [RUNTIME_ERROR] assertion failed at x.test.luma:3:3: the condition is false\">");
    expect(xml).toContain("left:  1");
  });

  test("an unwritable report is a clear startup error (exit 2)", () => {
    const dir = project({ "x.test.luma": `test "ok" { assert true }\n` });
    const r = runLuma(["test", "--format", "junit", "no/such/dir/r.xml"], { cwd: dir });
    expect(r.stderr).toContain("cannot write no/such/dir/r.xml");
    expect(r.stderr).toContain("E0652");
    expect(r.exitCode).toBe(2);
  });
});

describe("luma test: the words are contextual", () => {
  test("`test`, `mock`, `replay` and `assert` stay usable as names; `luma FILE` skips test blocks and runs assert", () => {
    const dir = project({
      "names.luma": `test = 5\nmock = [1]\nreplay = "r"\nprint(test, mock, replay)\ntest "never by luma FILE" {\n  print("inside")\n}\nassert test == 6, "test is five"\n`,
    });
    const r = runLuma(["names.luma"], { cwd: dir });
    expect(r.stdout).toBe('5 [1] r\n');
    expect(r.stderr).toBe(
      [
        "Error: [RUNTIME_ERROR] assertion failed at names.luma:8:1: test is five",
        "  left:  5",
        "  right: 6",
        "  --> names.luma:8:1",
        '  8 | assert test == 6, "test is five"',
        "    | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "",
      ].join("\n"),
    );
    expect(r.exitCode).toBe(1);
  });
});

describe("luma test: a mock answers in each provider family's wire format", () => {
  const families: [string, string][] = [
    ["anthropic", 'provider: "anthropic"  name: "claude-sonnet-4-5"'],
    ["gemini", 'provider: "gemini"  name: "gemini-3-flash"'],
    ["openai responses", 'provider: "openai"  name: "gpt-5.4-mini"  api: "responses"'],
    ["azure", 'provider: "azure"  name: "gpt-4o"  deployment: "d"  api_version: "2024-10-21"'],
  ];
  for (const [family, keys] of families) {
    test(`${family}: tool calls, then a wrapped non-object answer`, () => {
      const dir = project({
        "f.luma": `schema Sum { sum: float }\ntool add(a: float, b: float) -> Sum { side_effects: "none" }\nmodel M { ${keys} }\nagent A {\n  model: M\n  tools: [add]\n  fn run() -> int { return ask "add 2 and 3" -> int }\n}\n`,
        "f.test.luma": `test "family" {\n  mock M [{ calls: [{ tool: "add", input: { a: 2, b: 3 } }] }, { answer: 5 }]\n  assert A.run() == 5\n  assert calls("add") == 1\n}\n`,
      });
      const r = runLuma(["test"], { cwd: dir, env: { AZURE_OPENAI_ENDPOINT: "https://example.invalid" } });
      expect(r.stdout).toBe("pass f.test.luma › family\n1 passed, 0 failed\n");
      expect(r.exitCode).toBe(0);
    });
  }
});

describe("luma test: the checker types assert and calls", () => {
  test("calls(name) is an int and takes a string; an assert condition must be a bool", () => {
    const dir = project({ "c.test.luma": `test "t" {\n  n: string = calls("x")\n  assert calls(3) == 0\n}\n` });
    const r = runLuma(["test"], { cwd: dir });
    expect(r.stdout).toContain("c.test.luma:2:15: error[E0304]: Cannot assign a value of type 'int' to 'n' of type 'string'.");
    expect(r.stdout).toContain("c.test.luma:3:16: error[E0315]: Builtin 'calls' expects a tool name (a string), not 'int'.");
    expect(r.exitCode).toBe(1);
  });
});
