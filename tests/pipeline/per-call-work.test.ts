/**
 * Spec §9: what the pipeline does on every call stays correct as its per-call work shrinks —
 * the cache keys by the tool's compiled fingerprint and answers synchronous chains without
 * promises, step 12 keeps its trace clock apart from the handler's deadline clock, and a
 * valid value's validation shares its (empty) issue lists.
 */
import { describe, expect, test } from "bun:test";
import { createSchemaTable } from "../../src/schema/schema-table";
import { cacheSingleFlight } from "../../src/runtime/tools/steps/08-cache-single-flight";
import { CallContext } from "../../src/runtime/tools/steps/call-context";
import type { CallPlan } from "../../src/runtime/tools/steps/call-plan";
import type { PipelineRuntime } from "../../src/runtime/tools/steps/step";
import { harness, programOf } from "./harness";

const SOURCE = `
schema R { result: float }
tool calc(a: float, b: float, opts?: any) -> R { cache: true }
tool publish(value: string) -> R { side_effects: "write" }
agent Asking { tools: [publish] tool_policy: "approval" }
`;

describe("§9 step 8 cache: keyed by the compiled fingerprint, synchronous when the chain is", () => {
  test("a synchronous handler's result is cached at once: the next identical call is a cache_hit", async () => {
    let runs = 0;
    const h = harness(SOURCE, { handlers: { calc: (i: any) => (runs++, { result: i.a + i.b }) } });
    await h.call("calc", { a: 1, b: 2, opts: { z: [{ y: 1, x: 2 }] } });
    await h.call("calc", { opts: { z: [{ x: 2, y: 1 }] }, b: 2, a: 1 });
    expect(runs).toBe(1);
    expect(h.events.map((e) => e.cache_hit)).toEqual([false, true]);
  });

  test("the key is the tool's fingerprint of the input, and a synchronous chain is answered without a promise", () => {
    const step = cacheSingleFlight({} as PipelineRuntime);
    const fingerprinted: unknown[] = [];
    const plan = { tool: { name: "t", options: { cache: true }, fingerprint: (i: unknown) => (fingerprinted.push(i), "one key") } } as unknown as CallPlan;
    const ctx = (input: unknown) => new CallContext(plan, { tool: "t", input, mode: "direct" });
    expect(step.run(ctx({ a: 1 }), () => "first")).toBe("first");
    const second = ctx({ a: 2 });
    expect(step.run(second, () => "second")).toBe("first"); // same fingerprint: a hit
    expect(second.cacheHit).toBe(true);
    expect(fingerprinted).toEqual([{ a: 1 }, { a: 2 }]);
  });

  test("a synchronous throw is not cached and leaves nothing running: the next call runs again", async () => {
    let runs = 0;
    const h = harness(SOURCE, {
      handlers: {
        calc: () => {
          if (++runs === 1) throw new Error("first call fails");
          return { result: 1 };
        },
      },
    });
    await expect(h.call("calc", { a: 1, b: 2 })).rejects.toMatchObject({ code: "TOOL_HANDLER_ERROR" });
    expect(await h.call("calc", { a: 1, b: 2 })).toEqual({ result: 1 });
    expect(runs).toBe(2);
    expect(h.events.map((e) => [e.outcome, e.single_flight, e.cache_hit])).toEqual([
      ["error", false, false],
      ["ok", false, false],
    ]);
  });
});

describe("§9 step 12 telemetry: duration_ms is the whole call", () => {
  test("an approval wait resets the handler's deadline clock, yet the trace still counts it", async () => {
    const h = harness(SOURCE, {
      handlers: { publish: () => ({ result: 1 }) },
      approve: async () => {
        h.clock.advance(40); // the user took 40 ms to answer
        return true;
      },
    });
    await h.callAs("Asking", "publish", { value: "v" });
    expect(h.events).toMatchObject([{ event: "tool.call", tool: "publish", outcome: "ok", duration_ms: 40 }]);
  });
});

describe("§3 validation of a valid value", () => {
  test("shares one frozen empty issue list instead of making two per call", () => {
    const program = programOf(SOURCE);
    const schemas = createSchemaTable(program);
    const a = schemas.validate({ schema: "R" }, { result: 1 }, "output", "R");
    const b = schemas.validate({ toolInput: "calc" }, { a: 1, b: 2 }, "input", "calc.input");
    expect(a.ok && b.ok).toBe(true);
    expect([a.hard, a.soft, b.hard, b.soft].every((list) => list === a.hard)).toBe(true);
    expect(Object.isFrozen(a.hard) && a.hard.length === 0).toBe(true);
  });
});

describe("§9 step 10 run handler: a promise that is already fulfilled", () => {
  const ASYNC_SOURCE = `
schema R { result: float }
tool calc(a: float, b: float, opts?: any) -> R { cache: true }
tool quick(x: int) -> R { timeout: 50 }
`;
  test("an async handler that never awaited is answered without a race: its value goes on synchronously (cached at once)", async () => {
    let runs = 0;
    const h = harness(ASYNC_SOURCE, { handlers: { calc: async (i: any) => (runs++, { result: i.a + i.b }) } });
    // Both calls start before either is awaited: the first chain finished synchronously, so
    // the second is a cache hit, not a single-flight join of a running execution.
    const first = h.call("calc", { a: 1, b: 2 });
    const second = h.call("calc", { a: 1, b: 2 });
    expect(await first).toEqual({ result: 3 });
    expect(await second).toEqual({ result: 3 });
    expect(runs).toBe(1);
    expect(h.events.map((e) => [e.cache_hit, e.single_flight])).toEqual([
      [false, false],
      [true, false],
    ]);
  });

  test("a handler whose promise is still pending keeps its deadline: TOOL_TIMEOUT when it passes", async () => {
    const h = harness(ASYNC_SOURCE, { handlers: { quick: () => new Promise(() => {}) } });
    const call = h.call("quick", { x: 1 });
    await Promise.resolve();
    h.clock.advance(50);
    await expect(call).rejects.toMatchObject({ code: "TOOL_TIMEOUT" });
  });

  test("an already rejected promise is still a handler error (not a value)", async () => {
    const h = harness(ASYNC_SOURCE, { handlers: { quick: () => Promise.reject(new Error("boom")) } });
    await expect(h.call("quick", { x: 1 })).rejects.toMatchObject({ code: "TOOL_HANDLER_ERROR", message: expect.stringContaining("boom") });
  });
});
