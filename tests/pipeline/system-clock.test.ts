/** Spec §9 step 10 with real timers: the shared deadline timer and backoff sleep on the system clock. */
import { describe, expect, test } from "bun:test";
import { systemClock } from "../../src/runtime/base/clock";
import { createToolInvoker } from "../../src/runtime/tools/pipeline";
import { createSchemaTable } from "../../src/schema/schema-table";
import { failure, programOf } from "./harness";

const SOURCE = `
schema R { result: float }
tool hang(x: int) -> R { timeout: 5 }
tool quick(x: int) -> R { timeout: 5 }
`;

describe("§9 step 10 on the system clock", () => {
  test("a handler that never settles ends with TOOL_TIMEOUT from the shared deadline timer", async () => {
    const program = programOf(SOURCE);
    let signal: AbortSignal | undefined;
    const invoker = createToolInvoker({
      program,
      schemas: createSchemaTable(program),
      registry: {
        handler: (name) =>
          name === "hang"
            ? (_i: unknown, s?: AbortSignal) => ((signal = s), new Promise(() => {}))
            : async (i: { x: number }) => ({ result: i.x }),
      },
      config: {},
      env: {},
      warn: () => {},
    });
    const hung = invoker.call({ tool: "hang", input: { x: 1 }, mode: "direct" });
    // Calls finishing in time while another is in flight are unaffected.
    expect(await invoker.call({ tool: "quick", input: { x: 2 }, mode: "direct" })).toEqual({ result: 2 });
    const e = await failure(hung);
    expect(e.code).toBe("TOOL_TIMEOUT");
    expect(signal?.aborted).toBe(true);
    expect(await invoker.call({ tool: "quick", input: { x: 3 }, mode: "direct" })).toEqual({ result: 3 });
  });

  test("sleep resolves early once its signal aborts", async () => {
    const ctl = new AbortController();
    const slept = systemClock.sleep(60_000, ctl.signal);
    ctl.abort();
    await slept;
  });
});
