/** Spec §9 steps 11–12: output validation, telemetry (§14), circuit breaker; the startup rule of §4. */
import { describe, expect, test } from "bun:test";
import { checkToolRuntimeRules } from "../../src/runtime/tools/pipeline";
import { failure, harness, programOf } from "./harness";

const SOURCE = `
schema R { result: float  score?: int @range(0, 10) @severity("soft")  tier?: enum["a", "b"] @default("a") }
schema Invoice { invoice_number: string }
schema Receipt { reference: string }
schema Document = Invoice | Receipt tagged by kind
tool calc(a: float) -> R {}
tool other(a: float) -> R {}
tool classify(text: string) -> Document {}
agent Fragile { tools: [calc, other] tool_failure_limit: 3 }
agent Single { tools: [calc] tool_failure_limit: 1 }
agent Sturdy { tools: [calc] }
`;

describe("§9 step 11 output validation", () => {
  const outputs: [string, unknown, string][] = [
    ["a string", "3", "calc.output must be an object, got a string."],
    ["null", null, "calc.output must be an object, got null."],
    ["nothing", undefined, "calc.output must be an object, got nothing."],
    ["an array", [1], "calc.output must be an object, got an array."],
  ];
  for (const [name, out, message] of outputs) {
    test(`a handler returning ${name} for an object schema is TOOL_OUTPUT_INVALID`, async () => {
      const h = harness(SOURCE, { handlers: { calc: () => out } });
      const e = await failure(h.call("calc", { a: 1 }));
      expect(e.code).toBe("TOOL_OUTPUT_INVALID");
      expect(e.message).toBe(message);
    });
  }

  test("a schema violation is TOOL_OUTPUT_INVALID with the issue message", async () => {
    const h = harness(SOURCE, { handlers: { calc: () => ({ result: "3" }) } });
    const e = await failure(h.call("calc", { a: 1 }));
    expect(e.code).toBe("TOOL_OUTPUT_INVALID");
    expect(e.message).toContain("calc.output.result");
  });

  test("'classify.output.kind must identify a tagged union member.' for bare member fields", async () => {
    const h = harness(SOURCE, { handlers: { classify: () => ({ reference: "r" }) } });
    const e = await failure(h.call("classify", { text: "t" }));
    expect(e.toLine()).toBe("Error: [TOOL_OUTPUT_INVALID] classify.output.kind must identify a tagged union member.");
  });

  test("a soft issue annotates: value kept, a 'warning:' line and a validation.soft trace event", async () => {
    const h = harness(SOURCE, { handlers: { calc: () => ({ result: 1, score: 50 }) } });
    expect(await h.call("calc", { a: 1 })).toEqual({ result: 1, score: 50, tier: "a" });
    expect(h.warnings).toEqual(["warning: calc.output.score must be <= 10 (@range)."]);
    expect(h.events[0]).toMatchObject({ event: "validation.soft", tool: "calc", path: "calc.output.score", rule: "@range" });
    expect(h.events[1]).toMatchObject({ event: "tool.call", outcome: "ok" });
  });
});

describe("§14 telemetry: one event per tool call", () => {
  test("a success carries tool, agent, mode, attempts, duration_ms, outcome, code and the three flags", async () => {
    const h = harness(SOURCE, { handlers: { calc: (i: any) => ({ result: i.a }) } });
    await h.call("calc", { a: 123456 }, { mode: "native" });
    expect(h.events).toEqual([
      {
        event: "tool.call",
        tool: "calc",
        agent: null,
        mode: "native",
        call_id: null,
        attempts: 1,
        duration_ms: 0,
        outcome: "ok",
        code: null,
        retryable: null,
        side_effects: "none",
        cache_hit: false,
        single_flight: false,
        idempotent_replay: false,
        metadata: null,
      },
    ]);
    expect(JSON.stringify(h.events)).not.toContain("123456");
  });

  test("a failure carries its code, and the agent's name", async () => {
    const h = harness(SOURCE, { handlers: { calc: () => { throw new Error("boom"); } } });
    await failure(h.callAs("Sturdy", "calc", { a: 1 }));
    expect(h.events).toHaveLength(1);
    expect(h.events[0]).toMatchObject({ agent: "Sturdy", outcome: "error", code: "TOOL_HANDLER_ERROR", retryable: false });
  });

  test("failures in early steps are traced too (attempts 0)", async () => {
    const h = harness(SOURCE, { handlers: {} });
    await failure(h.call("calc", { a: 1 }));
    expect(h.events[0]).toMatchObject({ code: "TOOL_NOT_FOUND", attempts: 0 });
  });
});

describe("§9 step 12 circuit breaker", () => {
  const breaking = () => {
    const runs: string[] = [];
    const handlers = {
      calc: (i: any) => {
        runs.push("calc");
        if (i.a < 0) throw new Error("negative");
        return { result: i.a };
      },
      other: () => (runs.push("other"), { result: 0 }),
    };
    return { runs, handlers };
  };

  test("limit 3: failures 1–2 keep their code; the 3rd is TOOL_CIRCUIT_OPEN retryable false; later calls fail at once", async () => {
    const { runs, handlers } = breaking();
    const h = harness(SOURCE, { handlers });
    const method = { failures: 0 };
    const codes: (string | undefined)[] = [];
    for (let n = 0; n < 3; n++) codes.push((await failure(h.callAs("Fragile", "calc", { a: -1 }, method))).code);
    expect(codes).toEqual(["TOOL_HANDLER_ERROR", "TOOL_HANDLER_ERROR", "TOOL_CIRCUIT_OPEN"]);
    expect(method.failures).toBe(3);
    expect(runs.length).toBe(3);

    // Every later call in this method call, any tool, even a valid one: not run.
    const later = await failure(h.callAs("Fragile", "other", { a: 1 }, method));
    expect([later.code, later.retryable]).toEqual(["TOOL_CIRCUIT_OPEN", false]);
    expect((await failure(h.callAs("Fragile", "calc", { a: 1 }, method))).code).toBe("TOOL_CIRCUIT_OPEN");
    expect(runs.length).toBe(3);
  });

  test("the circuit-opening error is not retryable even when the failure was", async () => {
    const h = harness(SOURCE, { handlers: { calc: () => { throw new Error("x"); } } });
    const e = await failure(h.callAs("Single", "calc", { a: 1 }, { failures: 0 }));
    expect([e.code, e.retryable]).toEqual(["TOOL_CIRCUIT_OPEN", false]);
    expect(e.message).toContain("x");
  });

  test("every kind of failure counts, successes do not", async () => {
    const { handlers } = breaking();
    const h = harness(SOURCE, { handlers });
    const method = { failures: 0 };
    await failure(h.callAs("Fragile", "calc", { a: "bad" }, method)); // TOOL_INPUT_INVALID
    await h.callAs("Fragile", "calc", { a: 1 }, method);
    await failure(h.callAs("Fragile", "calc", { a: -1 }, method));
    expect(method.failures).toBe(2);
  });

  test("a new method call starts with a closed circuit", async () => {
    const { runs, handlers } = breaking();
    const h = harness(SOURCE, { handlers });
    await failure(h.callAs("Single", "calc", { a: -1 }, { failures: 0 }));
    expect(await h.callAs("Single", "calc", { a: 2 }, { failures: 0 })).toEqual({ result: 2, tier: "a" });
    expect(runs.length).toBe(2);
  });

  test("without tool_failure_limit, or at top level, nothing opens", async () => {
    const { handlers } = breaking();
    const h = harness(SOURCE, { handlers });
    const method = { failures: 0 };
    for (let n = 0; n < 5; n++) expect((await failure(h.callAs("Sturdy", "calc", { a: -1 }, method))).code).toBe("TOOL_HANDLER_ERROR");
    for (let n = 0; n < 5; n++) expect((await failure(h.call("calc", { a: -1 }))).code).toBe("TOOL_HANDLER_ERROR");
  });
});

describe("§4 consistency rule checked at startup", () => {
  test("'Cache cannot be used on a tool that uses needs: x' is a startup error", () => {
    const program = programOf(`
      schema R { result: float }
      schema Database { user: string }
      tool fine(a: int) -> R { cache: true }
      tool x(a: int) -> R {
        needs db: Database
        cache: true
      }`);
    const e = checkToolRuntimeRules(program);
    expect(e?.message).toBe("Cache cannot be used on a tool that uses needs: x");
    expect(e?.phase).toBe("startup");
    expect(e?.toLine()).toBe("Error: Cache cannot be used on a tool that uses needs: x");
  });

  test("a program without the violation passes", () => {
    expect(checkToolRuntimeRules(programOf(SOURCE))).toBeUndefined();
  });
});
