/** Spec §9 step 10: timeout + AbortSignal, retries with backoff; §9 "Errors": typed handler errors. */
import { describe, expect, test } from "bun:test";
import { LumaToolError } from "../../src/luma-module";
import { failure, harness, settle } from "./harness";

const SOURCE = `
schema R { result: float }
schema ToolError { code: enum["DB_TIMEOUT", "DB_DOWN"]  message: string  retryable: bool  details?: any }
tool slow(x: int) -> R { timeout: 1000 }
tool slow_default(x: int) -> R {}
tool flaky_none(x: int) -> R { retries: 3 }
tool flaky_fixed(x: int) -> R { retries: 3  retry_backoff: "fixed" }
tool flaky_exp(x: int) -> R { retries: 3  retry_backoff: "exponential" }
tool flaky_exp50(x: int) -> R { retries: 3  retry_backoff: "exponential"  retry_delay: 50 }
tool flaky_deadline(x: int) -> R { retries: 5  retry_backoff: "exponential"  timeout: 250 }
tool typed(x: int) -> R { error: ToolError  retries: 2 }
tool untyped(x: int) -> R { retries: 2 }
agent Capped { tools: [slow, slow_default] tool_timeout: 5000  tool_timeout_max: 2000 }
agent Patient { tools: [slow_default] tool_timeout: 3000 }
`;

const never = () => new Promise<never>(() => {});

/** Tracks whether a promise has settled, without awaiting it. */
const watch = (p: Promise<unknown>) => {
  const state = { settled: false, error: undefined as unknown };
  p.then(
    () => (state.settled = true),
    (e) => ((state.settled = true), (state.error = e)),
  );
  return state;
};

describe("§9 step 10 run handler: timeout + AbortSignal", () => {
  test("a handler ignoring its signal does not keep the call alive: TOOL_TIMEOUT, retryable, signal aborted", async () => {
    let signal: AbortSignal | undefined;
    const h = harness(SOURCE, { handlers: { slow: (_i: unknown, s?: AbortSignal) => ((signal = s), never()) } });
    const call = watch(h.call("slow", { x: 1 }));
    await settle();
    h.clock.advance(999);
    await settle();
    expect(call.settled).toBe(false);
    expect(signal?.aborted).toBe(false);
    h.clock.advance(1);
    await settle();
    expect(call.settled).toBe(true);
    const e = call.error as LumaToolError;
    expect(e.code).toBe("TOOL_TIMEOUT");
    expect(e.retryable).toBe(true);
    expect(e.message).toBe("Tool 'slow' timed out after 1000 ms.");
    expect(signal?.aborted).toBe(true);
  });

  test("effective timeout = min(tool.timeout ?? agent.tool_timeout, agent.tool_timeout_max)", async () => {
    const h = harness(SOURCE, { handlers: { slow: never, slow_default: never } });
    const cases: [() => Promise<unknown>, number][] = [
      [() => h.call("slow_default", { x: 1 }), 30_000], // top level: the default
      [() => h.callAs("Patient", "slow_default", { x: 1 }), 3000], // agent.tool_timeout
      [() => h.callAs("Capped", "slow_default", { x: 1 }), 2000], // capped by tool_timeout_max
      [() => h.callAs("Capped", "slow", { x: 1 }), 1000], // tool.timeout, under the cap
    ];
    for (const [start, ms] of cases) {
      const call = watch(start());
      await settle();
      h.clock.advance(ms - 1);
      await settle();
      expect(call.settled).toBe(false);
      h.clock.advance(1);
      await settle();
      expect((call.error as LumaToolError).message).toContain(`after ${ms} ms`);
    }
  });

  test("a handler taking (input, signal) gets an AbortSignal; one taking (input) is not made one", async () => {
    const got: unknown[] = [];
    const h = harness(SOURCE, {
      handlers: {
        slow: (_i: unknown, s?: AbortSignal) => (got.push(s), { result: 1 }),
        slow_default: function (this: unknown, _i: unknown) {
          got.push(arguments[1]);
          return { result: 1 };
        },
      },
    });
    await h.call("slow", { x: 1 });
    await h.call("slow_default", { x: 1 });
    expect(got[0]).toBeInstanceOf(AbortSignal);
    expect(got[1]).toBeUndefined();
  });

  test("an async handler that finishes in time is not affected by its deadline", async () => {
    const h = harness(SOURCE, { handlers: { slow: async () => ({ result: 5 }) } });
    expect(await h.call("slow", { x: 1 })).toEqual({ result: 5 });
    h.clock.advance(5000);
    await settle();
    expect(h.events.length).toBe(1);
  });
});

describe("§9 step 10 run handler: retries and backoff", () => {
  const failing = (times: number, retryable = true) => {
    let calls = 0;
    const handler = () => {
      calls++;
      if (calls <= times) throw new LumaToolError({ code: "DB_TIMEOUT", message: "Database timed out", retryable });
      return { result: calls };
    };
    return { handler, calls: () => calls };
  };

  const backoffs: [string, number[]][] = [
    ["flaky_none", [0, 0, 0]],
    ["flaky_fixed", [100, 100, 100]],
    ["flaky_exp", [100, 200, 400]],
    ["flaky_exp50", [50, 100, 200]],
  ];
  for (const [tool, waits] of backoffs) {
    test(`${tool}: a retryable error is retried up to 'retries' with waits ${waits.join(",")}`, async () => {
      const f = failing(10);
      const h = harness(SOURCE, { handlers: { [tool]: f.handler } });
      const e = await failure(h.call(tool, { x: 1 }));
      expect(e.code).toBe("DB_TIMEOUT");
      expect(f.calls()).toBe(4);
      expect(h.clock.sleeps).toEqual(waits);
      expect(h.events[0].attempts).toBe(4);
    });
  }

  test("a call that succeeds on a retry returns that result; attempts are counted", async () => {
    const f = failing(2);
    const h = harness(SOURCE, { handlers: { flaky_fixed: f.handler } });
    expect(await h.call("flaky_fixed", { x: 1 })).toEqual({ result: 3 });
    expect(h.events[0]).toMatchObject({ attempts: 3, outcome: "ok" });
  });

  test("retryable: false is not retried", async () => {
    const f = failing(10, false);
    const h = harness(SOURCE, { handlers: { flaky_exp: f.handler } });
    expect((await failure(h.call("flaky_exp", { x: 1 }))).retryable).toBe(false);
    expect(f.calls()).toBe(1);
    expect(h.clock.sleeps).toEqual([]);
  });

  test("an async rejection is retried like a throw", async () => {
    let calls = 0;
    const h = harness(SOURCE, {
      handlers: {
        flaky_none: async () => {
          if (++calls < 3) throw new LumaToolError({ code: "DB_DOWN", message: "down", retryable: true });
          return { result: calls };
        },
      },
    });
    expect(await h.call("flaky_none", { x: 1 })).toEqual({ result: 3 });
  });

  test("the deadline stops the backoff: once the signal aborts no further attempt starts", async () => {
    // timeout 250: attempt 1 fails at 0, waits 100; attempt 2 fails at 100, waits 200 → deadline at 250.
    const f = failing(10);
    const h = harness(SOURCE, { handlers: { flaky_deadline: f.handler } });
    const e = await failure(h.call("flaky_deadline", { x: 1 }));
    expect(e.code).toBe("TOOL_TIMEOUT");
    expect(f.calls()).toBe(2);
    expect(h.clock.sleeps).toEqual([100, 200]);
    expect(h.events[0]).toMatchObject({ attempts: 2, code: "TOOL_TIMEOUT" });
  });
});

describe("§9 Errors: typed errors thrown by handlers", () => {
  test("a LumaToolError passes through unchanged: same object, code, message, retryable, details", async () => {
    const thrown = new LumaToolError({ code: "DB_DOWN", message: "Database down", retryable: false, details: { table: "t" } });
    const h = harness(SOURCE, { handlers: { typed: () => { throw thrown; } } });
    const e = await failure(h.call("typed", { x: 1 }));
    expect(e).toBe(thrown);
    expect([e.code, e.message, e.retryable, e.details]).toEqual(["DB_DOWN", "Database down", false, { table: "t" }]);
  });

  test("with error: Schema, a thrown error that does not match is TOOL_ERROR_INVALID (not retried)", async () => {
    let calls = 0;
    const h = harness(SOURCE, {
      handlers: { typed: () => { calls++; throw new LumaToolError({ code: "OOPS", message: "m", retryable: true }); } },
    });
    const e = await failure(h.call("typed", { x: 1 }));
    expect(e.code).toBe("TOOL_ERROR_INVALID");
    expect(e.retryable).toBe(false);
    expect(e.message).toContain("typed.error.code");
    expect(calls).toBe(1);
  });

  test("with error: Schema, a matching retryable error is retried", async () => {
    let calls = 0;
    const h = harness(SOURCE, {
      handlers: { typed: () => { calls++; throw new LumaToolError({ code: "DB_TIMEOUT", message: "m", retryable: true }); } },
    });
    expect((await failure(h.call("typed", { x: 1 }))).code).toBe("DB_TIMEOUT");
    expect(calls).toBe(3);
  });

  test("a plain Error becomes TOOL_HANDLER_ERROR, retryable false, with its message and the handler's file:line", async () => {
    let calls = 0;
    const h = harness(SOURCE, { handlers: { untyped: () => { calls++; throw new Error("Unsupported operation"); } } });
    const e = await failure(h.call("untyped", { x: 1 }));
    expect([e.code, e.retryable]).toEqual(["TOOL_HANDLER_ERROR", false]);
    expect(e.message).toMatch(/^Unsupported operation \(at tests\/pipeline\/run-handler\.test\.ts:\d+:\d+\)$/);
    expect(calls).toBe(1);
  });

  test("an error-shaped object from another copy of the module keeps its fields", async () => {
    const h = harness(SOURCE, {
      handlers: { untyped: () => { throw { code: "RATE", message: "slow down", retryable: false, details: { n: 1 } }; } },
    });
    const e = await failure(h.call("untyped", { x: 1 }));
    expect([e.code, e.message, e.retryable, e.details]).toEqual(["RATE", "slow down", false, { n: 1 }]);
  });
});
