/**
 * Spec §9 step 10: "when it fires the handler's AbortSignal is aborted and the call fails
 * with TOOL_TIMEOUT"; a handler that ignores the signal keeps neither the call nor the
 * `luma` process alive; the retry backoff stops when the signal aborts.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock, type Clock } from "../../src/runtime/base/clock";
import { createToolInvoker } from "../../src/runtime/tools/pipeline";
import { CallContext } from "../../src/runtime/tools/steps/call-context";
import type { CallPlan } from "../../src/runtime/tools/steps/call-plan";
import { createSchemaTable } from "../../src/schema/schema-table";
import { LumaToolError } from "../../src/luma-module";
import type { LumaError } from "../../src/diagnostics/luma-error";
import { runLuma } from "../support/luma-binary";
import { failure, harness, programOf, settle } from "./harness";

const SOURCE = `
schema R { result: float }
tool slow(x: int) -> R { timeout: 1000 }
tool backoff(x: int) -> R { timeout: 50  retries: 1  retry_backoff: "fixed"  retry_delay: 60000 }
`;

describe("§9 step 10: the handler's AbortSignal", () => {
  test("is aborted exactly at the deadline, once, with the TOOL_TIMEOUT error as its reason", async () => {
    let signal: AbortSignal | undefined;
    let aborts = 0;
    const h = harness(SOURCE, {
      handlers: {
        slow: (_i: unknown, s?: AbortSignal) => {
          signal = s;
          s!.addEventListener("abort", () => aborts++);
          return new Promise(() => {});
        },
      },
    });
    const call = failure(h.call("slow", { x: 1 }));
    await settle();
    h.clock.advance(999);
    await settle();
    expect(signal!.aborted).toBe(false);
    h.clock.advance(1);
    await settle();
    expect(signal!.aborted).toBe(true);
    expect(aborts).toBe(1);
    expect((signal!.reason as LumaError).code).toBe("TOOL_TIMEOUT");
    expect((await call).code).toBe("TOOL_TIMEOUT");
  });

  test("a signal first asked for after the deadline is already aborted", () => {
    const plan = { timeoutError: () => new Error("timed out") } as unknown as CallPlan;
    const ctx = new CallContext(plan, { tool: "t", input: {}, mode: "direct" });
    ctx.expire();
    expect(ctx.signal().aborted).toBe(true);
    expect((ctx.signal().reason as Error).message).toBe("timed out");
  });

  test("the retry backoff wait ends when the signal aborts: a 60 s retry_delay does not outlive a 50 ms timeout", async () => {
    const program = programOf(SOURCE);
    const sleeps: { ms: number; ended: boolean }[] = [];
    const clock: Clock = {
      ...systemClock,
      sleep(ms, signal) {
        const entry = { ms, ended: false };
        sleeps.push(entry);
        return systemClock.sleep(ms, signal).then(() => void (entry.ended = true));
      },
    };
    const invoker = createToolInvoker({
      program,
      schemas: createSchemaTable(program),
      registry: { handler: () => () => Promise.reject(new LumaToolError({ code: "BUSY", message: "busy", retryable: true })) },
      config: {},
      env: {},
      clock,
      warn: () => {},
    });
    const e = await failure(invoker.call({ tool: "backoff", input: { x: 1 }, mode: "direct" }));
    expect(e.code).toBe("TOOL_TIMEOUT");
    await settle();
    expect(sleeps).toEqual([{ ms: 60_000, ended: true }]);
  });
});

describe("§9 step 10 end to end: nothing outlives its deadline", () => {
  const project = (handler: string, tool: string, body: string) => {
    const dir = mkdtempSync(join(tmpdir(), "luma-abort-"));
    writeFileSync(join(dir, "tools.ts"), `import { LumaToolError } from "luma";\nexport const lumaTools = { ${tool}: ${handler} };\n`);
    writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"] }));
    writeFileSync(join(dir, "main.luma"), `schema R { ok: bool }\n${body}`);
    return dir;
  };

  test("a handler that ignores its signal (and holds a 60 s timer) keeps neither the call nor the process alive", () => {
    const dir = project(
      "(_input: unknown, _signal: AbortSignal) => new Promise((resolve) => setTimeout(() => resolve({ ok: true }), 60_000))",
      "hang",
      `tool hang(x: int) -> R { timeout: 100 }
try {
  tool hang({ x: 1 })
} catch e {
  print(e.code, e.retryable)
}
tool hang({ x: 2 })
`,
    );
    const r = runLuma(["main.luma"], { cwd: dir });
    expect(r).toEqual({ exitCode: 1, stdout: "TOOL_TIMEOUT true\n", stderr: "Error: [TOOL_TIMEOUT] Tool 'hang' timed out after 100 ms.\n  --> main.luma:8:1\n  8 | tool hang({ x: 2 })\n    | ^^^^^^^^^^^^^^^^^^^\n" });
  });

  test("a retryable failure with a 60 s backoff ends at the 100 ms deadline, and the process exits", () => {
    const dir = project(
      '() => { throw new LumaToolError({ code: "BUSY", message: "busy", retryable: true }); }',
      "busy",
      `tool busy(x: int) -> R { timeout: 100  retries: 3  retry_backoff: "exponential"  retry_delay: 60000 }
tool busy({ x: 1 })
`,
    );
    const r = runLuma(["main.luma"], { cwd: dir });
    expect(r).toEqual({ exitCode: 1, stdout: "", stderr: "Error: [TOOL_TIMEOUT] Tool 'busy' timed out after 100 ms.\n  --> main.luma:3:1\n  3 | tool busy({ x: 1 })\n    | ^^^^^^^^^^^^^^^^^^^\n" });
  });
});
