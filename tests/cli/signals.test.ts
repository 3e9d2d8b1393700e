/**
 * Issue #12.7 through the real binary: Ctrl-C (SIGINT) and SIGTERM are graceful. The first
 * signal aborts the in-flight handler's AbortSignal, releases its idempotency claim once the
 * handler settled, writes its trace event, and exits 130 / 143; a rerun with the SQLite store
 * runs at once instead of waiting for the claim. A second signal exits at once.
 * See src/runtime/run/stop-on-signal.ts. The test waits for files the handler writes, never
 * for a duration.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, runLuma } from "../support/luma-binary";

// MODE=quick answers at once; otherwise the handler writes `started` and waits — for its
// signal (writing `aborted` with the reason and rejecting), or forever under MODE=ignore
// (still writing `aborted`, so the test knows the first signal was handled).
const TOOLS = `import { writeFileSync } from "node:fs";
export const lumaTools = {
  charge: (input, signal) => {
    if (process.env.MODE === "quick") return { charged: input.id };
    writeFileSync("started", "1");
    return new Promise((resolve, reject) => {
      signal.addEventListener("abort", () => {
        writeFileSync("aborted", String(signal.reason?.message));
        if (process.env.MODE !== "ignore") reject(signal.reason);
      });
    });
  },
};
`;
const APP = `schema Charge { charged: string }
tool charge(id: string) -> Charge {
  side_effects: "write"
  idempotent: true
  idempotency_key: id
  timeout: 600000
}
print(tool charge({ id: "req-1" }).charged)
`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-signal-"));
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  writeFileSync(join(dir, "app.luma"), APP);
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify({ tool_modules: ["./tools.ts"], idempotency_store: { backend: "sqlite", path: "claims.sqlite" } }));
  return dir;
}

async function until(file: string): Promise<void> {
  while (!existsSync(file)) await Bun.sleep(10);
}

function start(dir: string, mode: string) {
  return Bun.spawn([ensureBinary(), "app.luma", "--trace", "trace.jsonl"], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", NO_COLOR: "1", MODE: mode },
    stdout: "pipe",
    stderr: "pipe",
  });
}

describe("issue #12.7: the first signal stops the run gracefully", () => {
  for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    test(`${signal}: the handler's signal aborts, the trace has the call, exit ${status}, and a rerun is not blocked by the claim`, async () => {
      const dir = project();
      const p = start(dir, "wait");
      await until(join(dir, "started"));
      p.kill(signal);
      expect(await p.exited).toBe(status);
      expect(await new Response(p.stderr).text()).toBe(`Error: [RUNTIME_ERROR] Interrupted by ${signal}.\n`);
      expect(await new Response(p.stdout).text()).toBe("");
      expect(readFileSync(join(dir, "aborted"), "utf8")).toBe(`Interrupted by ${signal}.`);
      const events = readFileSync(join(dir, "trace.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ event: "tool.call", tool: "charge", outcome: "error", code: "RUNTIME_ERROR" });
      // The claim was released: the same key runs the handler now (no "still running" conflict).
      expect(runLuma(["app.luma"], { cwd: dir, env: { MODE: "quick" } })).toEqual({ exitCode: 0, stdout: "req-1\n", stderr: "" });
    });
  }
});

describe("issue #12.7: a second signal exits at once", () => {
  test("a handler that ignores its signal: the second SIGINT ends the process with 130, nothing more printed", async () => {
    const dir = project();
    const p = start(dir, "ignore");
    await until(join(dir, "started"));
    p.kill("SIGINT");
    await until(join(dir, "aborted"));
    p.kill("SIGINT");
    expect(await p.exited).toBe(130);
    expect(await new Response(p.stderr).text()).toBe("");
  });
});
