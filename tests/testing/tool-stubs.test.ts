/**
 * `mock tool name [answers]` in `luma test` (issue #28 §4), through the real binary: the
 * answers come in order instead of the handler, the pipeline around it still runs (output
 * validation, retries, policy refusals that take no answer), `calls` counts stub answers, a call past the list fails the test and no `catch`
 * holds it, a stubbed tool needs no handler module while an unstubbed one runs for real;
 * `luma check` refuses a stub of an undeclared or a client tool (E0323).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-stubs-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const PROGRAM = `schema Order { id: string, total: int }
schema Rate { cents: int }
schema Receipt { ok: bool }
tool lookup_order(id: string) -> Order { side_effects: "none" }
tool rate(n: int) -> Rate { side_effects: "none", retries: 2 }
tool refund(id: string, request_id: string) -> Receipt { side_effects: "write", idempotency_key: "request_id" }
tool echo(text: string) -> Rate { side_effects: "none" }

fn total_of(id: string) -> int {
  o = tool lookup_order({ id: id })
  return o.total
}

agent Reader {
  tools: [lookup_order, refund]
  tool_policy: "deny_write"
  fn refund_it(id: string) -> Receipt {
    return tool refund({ id: id, request_id: "r-1" })
  }
}
`;

// echo runs for real: the other tools are stubbed in some test of the file (STUBS_ALL), so they need no handler.
const TOOLS = `export const lumaTools = { echo: ({ text }: { text: string }) => ({ cents: text.length }) };\n`;

/** A test that stubs every tool but echo (with no answers): so none of them needs a handler in the file. */
const STUBS_ALL = `test "stubs" {
  mock tool lookup_order []
  mock tool rate []
  mock tool refund []
}
`;

function runTests(tests: string) {
  const dir = project({ "orders.luma": PROGRAM, "orders.test.luma": tests + STUBS_ALL, "tools.ts": TOOLS, "luma.config.json": `{ "tool_modules": ["tools.ts"] }` });
  return runLuma(["test", "--format", "junit", "report.xml"], { cwd: dir, env: {} });
}

describe("luma test: mock tool", () => {
  test("answers in order; an error answer is a catchable tool error (retryable false by default); calls counts answers", () => {
    const r = runTests(`test "in order" {
  mock tool lookup_order [{ output: { id: "o-1", total: 5 } }, { error: { code: "TOOL_TIMEOUT", message: "slow" } }, { output: { id: "o-3", total: 7 } }]
  assert total_of("o-1") == 5
  try {
    total_of("o-2")
    assert false, "expected a failure"
  } catch e {
    assert e.code == "TOOL_TIMEOUT" and e.message == "slow" and not e.retryable
  }
  assert total_of("o-3") == 7
  assert calls("lookup_order") == 3
  assert tool echo({ text: "abc" }).cents == 3, "an unstubbed tool runs its handler"
}
`);
    expect(r.stdout).toContain("pass orders.test.luma › in order\n");
    expect(r.exitCode).toBe(0);
  });

  test("a retryable error answer is retried, and the retry takes the next answer", () => {
    const r = runTests(`test "retry" {
  mock tool rate [{ error: { code: "RATE_LIMITED", message: "later", retryable: true } }, { output: { cents: 7 } }]
  assert tool rate({ n: 1 }).cents == 7
  assert calls("rate") == 2
}
`);
    expect(r.stdout).toContain("pass orders.test.luma › retry\n");
  });

  test("a stubbed output is validated against the tool's return schema", () => {
    const r = runTests(`test "bad output" {
  mock tool lookup_order [{ output: { id: "o-1" } }]
  try {
    total_of("o-1")
    assert false, "expected a failure"
  } catch e {
    assert e.code == "TOOL_OUTPUT_INVALID", e.code
  }
}
`);
    expect(r.stdout).toContain("pass orders.test.luma › bad output\n");
  });

  test("a refused call takes no answer", () => {
    const r = runTests(`test "refused" {
  mock tool refund [{ output: { ok: true } }]
  try {
    Reader.refund_it("o-1")
    assert false, "expected a refusal"
  } catch e {
    assert e.code == "TOOL_PERMISSION_DENIED", e.code
  }
  assert calls("refund") == 0
  assert tool refund({ id: "o-1", request_id: "r-9" }).ok, "the answer was left for the call that ran"
  assert calls("refund") == 1
}
`);
    expect(r.stdout).toContain("pass orders.test.luma › refused\n");
  });

  test("a call past the list fails the test naming the stub, and no catch holds it; the next test runs", () => {
    const r = runTests(`test "past the list" {
  mock tool lookup_order [{ output: { id: "o-1", total: 5 } }]
  total_of("a")
  try {
    total_of("b")
  } catch e {
    print("caught")
  }
}
test "not stubbed here" {
  try {
    total_of("c")
  } catch e {
    assert e.code == "TOOL_NOT_FOUND", e.code
  }
}
`);
    expect(r.stdout).toContain(
      `FAIL orders.test.luma › past the list\n    Error: [RUNTIME_ERROR] mock tool lookup_order (orders.test.luma:2:3) has 1 answer(s), and call 2 of test "past the list" is past them: add an answer\n`,
    );
    expect(r.stdout).not.toContain("caught");
    expect(r.stdout).toContain("pass orders.test.luma › not stubbed here\n");
    expect(r.exitCode).toBe(1);
  });

  test("a malformed answer fails the test naming the line; a stub of an undeclared or a client tool is E0323", () => {
    const r = runTests(`test "malformed" {
  mock tool rate [{ cents: 1 }]
}
`);
    expect(r.stdout).toContain(`FAIL orders.test.luma › malformed\n    Error: [RUNTIME_ERROR] mock tool rate: a tool stub's answer is { output: value } or { error: { code: "…", message: "…", retryable?: bool } } at orders.test.luma:2:18`);
    const program = PROGRAM + `tool pick(n: int) -> Rate { side_effects: "none", handler: "client" }\n`;
    const dir = project({ "orders.luma": program, "orders.test.luma": `test "t" {\n  mock tool nope [{ output: {} }]\n  mock tool pick [{ output: { cents: 1 } }]\n}\n` });
    const c = runLuma(["check", "orders.test.luma"], { cwd: dir });
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toContain("orders.test.luma:2:13: error[E0323]: 'mock tool nope' stubs no tool: no tool is declared with that name.");
    expect(c.stderr).toContain(`orders.test.luma:3:13: error[E0323]: 'mock tool pick' stubs no tool: tool 'pick' is answered by the client (handler: "client").`);
  });

  test("luma fmt keeps a stub; luma check accepts it", () => {
    const program = `schema Rate { cents: int }\ntool rate(n: int) -> Rate { side_effects: "none" }\n`;
    const dir = project({ "orders.luma": program, "orders.test.luma": `test "t" {\n  mock tool rate [ { output: { cents: 1 } } ]\n  assert tool rate({ n: 1 }).cents == 1\n}\n` });
    expect(runLuma(["check", "orders.test.luma"], { cwd: dir }).exitCode).toBe(0);
    expect(runLuma(["fmt", "orders.test.luma"], { cwd: dir }).exitCode).toBe(0);
    expect(readFileSync(join(dir, "orders.test.luma"), "utf8")).toBe(`test "t" {\n  mock tool rate [{ output: { cents: 1 } }]\n  assert tool rate({ n: 1 }).cents == 1\n}\n`);
    expect(runLuma(["test"], { cwd: dir }).stdout).toContain("pass orders.test.luma › t\n");
  });
});
