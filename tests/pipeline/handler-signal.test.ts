/**
 * Spec §10: a handler is `(input, signal, needs)`. Step 10 skips making the AbortSignal
 * only for a handler whose source proves it cannot read one; `handler.length` alone
 * cannot tell (a default or rest parameter stops its count).
 */
import { describe, expect, test } from "bun:test";
import type { LumaError } from "../../src/diagnostics/luma-error";
import { handlerReadsSignal } from "../../src/runtime/tools/steps/handler-signal";
import { failure, harness, settle } from "./harness";

const SOURCE = `
schema R { result: float }
tool slow(x: int) -> R { timeout: 1000 }
`;

const GETS_A_SIGNAL: [string, (...a: any[]) => unknown][] = [
  ["(input, signal)", (i: unknown, s: unknown) => s],
  ["(input, signal = undefined)", (i: unknown, s: unknown = undefined) => s],
  ["(input, ...rest)", (i: unknown, ...rest: unknown[]) => rest],
  ["(...args)", (...args: unknown[]) => args],
  ["({ a = 1 }) (a default inside the pattern: unsure, so yes)", ({ a = 1 }: { a?: number }) => a],
  ["function () { …arguments… } (a forwarding wrapper)", function () {
    return arguments;
  }],
  ["a bound function (source not readable)", function (i: unknown) {
    return i;
  }.bind(null)],
  ["async (input, signal, needs)", async (i: unknown, s: unknown, n: unknown) => n],
];

const GETS_NONE: [string, (...a: any[]) => unknown][] = [
  ["(input)", (i: unknown) => i],
  ["input =>", (i: unknown) => i],
  ["async (input)", async (i: unknown) => i],
  ["async ({ a, b }) (one destructured parameter)", async ({ a, b }: { a: number; b: number }) => a + b],
  ["function (input)", function (i: unknown) {
    return i;
  }],
  ["method(input)", { m(i: unknown) {
    return i;
  } }.m],
  ["() =>", () => 1],
];

describe("§10 handler signature: who is handed an AbortSignal", () => {
  for (const [form, fn] of GETS_A_SIGNAL) {
    test(`a handler written ${form} gets one`, () => expect(handlerReadsSignal(fn)).toBe(true));
  }
  for (const [form, fn] of GETS_NONE) {
    test(`a handler written ${form} cannot read one, so none is made`, () => expect(handlerReadsSignal(fn)).toBe(false));
  }

  test("a handler with a defaulted signal parameter (length 1) receives the call's AbortSignal, aborted at the deadline", async () => {
    let got: AbortSignal | undefined;
    const h = harness(SOURCE, {
      handlers: {
        slow: (_input: unknown, signal: AbortSignal | undefined = undefined) => {
          got = signal;
          return new Promise(() => {});
        },
      },
    });
    const call = failure(h.call("slow", { x: 1 }));
    await settle();
    expect(got).toBeInstanceOf(AbortSignal);
    expect(got!.aborted).toBe(false);
    h.clock.advance(1000);
    await settle();
    expect(got!.aborted).toBe(true);
    expect((got!.reason as LumaError).code).toBe("TOOL_TIMEOUT");
    expect((await call).code).toBe("TOOL_TIMEOUT");
  });

  test("a handler with a rest parameter receives the signal and the needs in it", async () => {
    let rest: unknown[] = [];
    const h = harness(SOURCE, { handlers: { slow: (_input: unknown, ...more: unknown[]) => ((rest = more), { result: 1 }) } });
    await h.call("slow", { x: 1 });
    expect(rest[0]).toBeInstanceOf(AbortSignal);
  });
});
