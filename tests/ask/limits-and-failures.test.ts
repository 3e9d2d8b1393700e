import { describe, expect, test } from "bun:test";
import { fakeProvider, program, runAsk } from "./ask-harness";
import { FAMILIES, finalFormat, toolChoice, toolResults } from "./wire-inspect";

const TOOLS_MODULE = `
import { LumaToolError } from "luma";
let open: () => void = () => {};
const gate = new Promise<void>((r) => (open = r));
let active = 0, peak = 0;
export const lumaTools = {
  // "first" can only finish once "second" has started: it deadlocks (and times out) unless both run at once.
  first: async () => { active++; peak = Math.max(peak, active); await gate; active--; return { label: "first", peak }; },
  second: async () => { active++; peak = Math.max(peak, active); open(); active--; return { label: "second", peak }; },
  flaky: () => { throw new LumaToolError({ code: "UPSTREAM_DOWN", message: "upstream is down", retryable: true }); },
  fatal: () => { throw new LumaToolError({ code: "ACCOUNT_LOCKED", message: "account is locked", retryable: false }); },
};
`;
const DECLS = `
schema Labelled { label: string  peak: int }
schema Empty {}
tool first() -> Labelled { timeout: 2000 }
tool second() -> Labelled { timeout: 2000 }
tool flaky() -> Empty { retries: 1 }
tool fatal() -> Empty {}
`;
const FINAL = { json: { words: 0, sum: 0 } };
const ASK = `ask "Go" -> FinalResult`;
const add = (a: number) => ({ name: "calculate", args: { a, b: 1, operation: "add" } });

describe("§6 tool_concurrency", () => {
  test('"calls in one turn run up to N at once, results returned in the model\'s order"', async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "first" }, { name: "second" }] }, FINAL]);
    const r = await runAsk(fake, program("openai", "tools: [first, second]\n  tool_concurrency: 2", ASK, { decls: DECLS }), { toolModule: TOOLS_MODULE });
    expect(r.error).toBeUndefined();
    // "second" finished first, yet the results follow the calls' order.
    expect(toolResults(fake.requests[1]).map((x) => x.content)).toEqual([{ label: "first", peak: 2 }, { label: "second", peak: 2 }]);
  });

  test("tool_concurrency 1 (the default) runs the calls one after another", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [add(1), add(2), add(3)] }, FINAL]);
    const r = await runAsk(fake, program("openai", "tools: [calculate]", ASK));
    expect(r.error).toBeUndefined();
    const calls = r.trace.filter((e) => e.event === "tool.call");
    expect(calls.map((e) => e.mode)).toEqual(["native", "native", "native"]);
    expect(toolResults(fake.requests[1]).map((x) => x.content)).toEqual([{ result: 2 }, { result: 3 }, { result: 4 }]);
  });
});

describe("§6 tool_rate_limit", () => {
  for (const kind of FAMILIES) {
    test(`${kind}: "calls past the limit are not run; each gets TOOL_RATE_LIMITED and the next request sets tool choice none"`, async () => {
      const fake = await fakeProvider();
      fake.script([{ toolCalls: [add(1), add(2), add(3)] }, FINAL]);
      const r = await runAsk(fake, program(kind, "tools: [calculate]\n  tool_rate_limit: 2", ASK), { kind });
      expect(r.error).toBeUndefined();
      const results = toolResults(fake.requests[1]);
      expect(results.map((x) => x.content.result ?? x.content.error.code)).toEqual([2, 3, "TOOL_RATE_LIMITED"]);
      expect(toolChoice(fake.requests[1])).toBe("none");
      expect(finalFormat(fake.requests[1])).toBeDefined();
      expect(r.trace.filter((e) => e.event === "tool.call").length).toBe(2);
      expect(r.trace.find((e) => e.event === "ask")).toMatchObject({ tool_calls: 2, rate_limited: 1, outcome: "ok" });
    });
  }

  test("the limit counts every call of the ask across turns (default 5)", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [add(1), add(2), add(3)] }, { toolCalls: [add(4), add(5), add(6)] }, FINAL]);
    const r = await runAsk(fake, program("openai", "tools: [calculate]", ASK));
    expect(r.error).toBeUndefined();
    expect(toolResults(fake.requests[2]).map((x) => x.content.result ?? x.content.error.code)).toEqual([5, 6, "TOOL_RATE_LIMITED"]);
  });

  test('"reset on each retry attempt": the retry may call tools again', async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [add(1)] }, { text: "not json" }, { toolCalls: [add(2)] }, FINAL]);
    const r = await runAsk(fake, program("openai", "tools: [calculate]\n  tool_rate_limit: 1\n  retries: 1", ASK));
    expect(r.error).toBeUndefined();
    expect(toolResults(fake.requests[3]).map((x) => x.content)).toEqual([{ result: 3 }]);
    expect(toolChoice(fake.requests[3])).toBe("auto");
  });

  test("a model that keeps calling tools after tool choice none fails the attempt (ASK_OUTPUT_INVALID), every call still answered", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [add(1)] }, { toolCalls: [add(2)] }]);
    const r = await runAsk(fake, program("openai", "tools: [calculate]\n  tool_rate_limit: 0", ASK));
    expect(r.error?.code).toBe("ASK_OUTPUT_INVALID");
    expect(r.error?.message).toContain("kept calling tools after the tool call limit");
    expect(fake.requests.length).toBe(2);
    expect(toolChoice(fake.requests[1])).toBe("none");
  });
});

describe("§7 tool failures in native mode", () => {
  test("an input-validation error goes back to the model as an error tool result; the ask goes on", async () => {
    const fake = await fakeProvider();
    for (const kind of ["openai", "anthropic", "gemini"] as const) {
      fake.script([{ toolCalls: [{ name: "calculate", args: { a: 1, b: 2, operation: "divide" } }] }, FINAL]);
      const r = await runAsk(fake, program(kind, "tools: [calculate]", ASK), { kind });
      expect(r.error).toBeUndefined();
      const [res] = toolResults(fake.requests[1]);
      expect(res.content.error.code).toBe("TOOL_INPUT_INVALID");
      expect(res.content.error.message).toContain("calculate.input.operation");
      if (kind !== "openai") expect(res.isError).toBe(true);
    }
  });

  test('"tool argument JSON that fails to parse is an input-validation failure returned to the model, not a crash"', async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "calculate", rawArgs: '{"a": 1, "b":' }] }, FINAL]);
    const r = await runAsk(fake, program("openai", "tools: [calculate]", ASK));
    expect(r.error).toBeUndefined();
    const [res] = toolResults(fake.requests[1]);
    expect(res.content.error.code).toBe("TOOL_INPUT_INVALID");
    expect(res.content.error.message).toStartWith("The arguments of tool 'calculate' are not valid JSON:");
    expect(r.trace.find((e) => e.event === "tool.call")).toMatchObject({ tool: "calculate", mode: "native", code: "TOOL_INPUT_INVALID" });
  });

  test("a retryable error that exhausted its retries goes back to the model", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "flaky" }] }, FINAL]);
    const r = await runAsk(fake, program("openai", "tools: [flaky]", ASK, { decls: DECLS }), { toolModule: TOOLS_MODULE });
    expect(r.error).toBeUndefined();
    expect(toolResults(fake.requests[1])[0].content).toEqual({ error: { code: "UPSTREAM_DOWN", message: "upstream is down", retryable: true } });
    expect(r.trace.find((e) => e.event === "tool.call")).toMatchObject({ attempts: 2, code: "UPSTREAM_DOWN" });
  });

  test('"a retryable: false error stops both the tool\'s retry and the LLM retry loop at once, and the ask fails with it"', async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "fatal" }, add(1)] }, FINAL, FINAL]);
    const r = await runAsk(fake, program("openai", "tools: [fatal, calculate]\n  retries: 2", ASK, { decls: DECLS }), { toolModule: TOOLS_MODULE });
    expect(r.error?.code).toBe("ACCOUNT_LOCKED");
    expect(r.error?.message).toBe("account is locked");
    expect(r.error?.retryable).toBe(false);
    expect(fake.requests.length).toBe(1);
    expect(r.trace.find((e) => e.event === "ask")).toMatchObject({ outcome: "error", code: "ACCOUNT_LOCKED", attempts: 1 });
  });

  test("a failure caught by try/catch in the program: the catch variable holds the tool's own error", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "fatal" }] }]);
    const src = program("openai", "tools: [fatal]", `try { ${ASK} } catch e { e.code }`, { decls: DECLS });
    const r = await runAsk(fake, src, { toolModule: TOOLS_MODULE });
    expect(r.out).toEqual(["ACCOUNT_LOCKED"]);
  });

  test("tool_failure_limit counts native failures in the method call; the failure reaching it is TOOL_CIRCUIT_OPEN and ends the ask", async () => {
    const fake = await fakeProvider();
    const bad = { name: "calculate", args: { a: 1, b: 2, operation: "divide" } };
    fake.script([{ toolCalls: [bad] }, { toolCalls: [bad] }, FINAL]);
    const r = await runAsk(fake, program("openai", "tools: [calculate]\n  tool_failure_limit: 2", ASK));
    expect(r.error?.code).toBe("TOOL_CIRCUIT_OPEN");
    expect(r.error?.retryable).toBe(false);
    expect(fake.requests.length).toBe(2);
  });

  test("a tool the agent does not list is not run; the model gets a TOOL_NOT_FOUND error result", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "text_stats", args: { text: "x" } }] }, FINAL]);
    const r = await runAsk(fake, program("openai", "tools: [calculate]", ASK));
    expect(r.error).toBeUndefined();
    expect(toolResults(fake.requests[1])[0].content.error.code).toBe("TOOL_NOT_FOUND");
    expect(r.trace.filter((e) => e.event === "tool.call")).toEqual([]);
  });

  test("native calls go through the agent's policy: deny_write refuses a write tool (TOOL_PERMISSION_DENIED ends the ask)", async () => {
    const fake = await fakeProvider();
    fake.script([{ toolCalls: [{ name: "save", args: { text: "x" } }] }, FINAL]);
    const decls = `schema Saved { ok: bool }\ntool save(text: string) -> Saved { side_effects: "write" }\n`;
    const mod = `export const save = () => ({ ok: true });`;
    const r = await runAsk(fake, program("openai", `tools: [save]\n  tool_policy: "deny_write"`, ASK, { decls }), { toolModule: mod });
    expect(r.error?.code).toBe("TOOL_PERMISSION_DENIED");
  });
});
