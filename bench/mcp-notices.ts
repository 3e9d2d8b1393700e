/**
 * Issue #29 §1 figure: what progress and logging cost a `tools/call` of `luma mcp`, per call,
 * against the same call without them — one `dist/luma mcp` over stdio (the fixture program of
 * tests/mcp/fixtures), the official SDK client, rounds interleaved so the machine's load hits
 * every row alike; each row is its best round.
 *
 * - a tool (`calculate`): without a progress token, and with one (a notification per pipeline
 *   step, about 4–5);
 * - an agent method (`ReadOnly.summarize`: one `print`, one tool call): logging off
 *   (`logging/setLevel emergency`: the line is filtered), logging on (`debug`: the `print` is
 *   sent as notifications/message), and logging and progress on together.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema, ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const FIXTURES = resolve(ROOT, "tests/mcp/fixtures");
const N = 500;
const ROUNDS = 4;

export async function benchMcpNotices(): Promise<void> {
  const client = new Client({ name: "bench", version: "1" }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({
      command: resolve(ROOT, "dist/luma"),
      args: ["mcp", resolve(FIXTURES, "served.luma"), "--tool-module", resolve(FIXTURES, "served-tools.ts")],
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LUMA_NO_CACHE: "1" },
      stderr: "ignore",
    }),
  );
  // Counted, so the bench shows the notices really came.
  let progress = 0;
  let logs = 0;
  client.setNotificationHandler(ProgressNotificationSchema, () => void progress++);
  client.setNotificationHandler(LoggingMessageNotificationSchema, () => void logs++);
  const token = { onprogress: () => undefined };
  const calc = { name: "calculate", arguments: { a: 1, b: 2, operation: "add" } };
  const method = { name: "ReadOnly.summarize", arguments: { text: "hi" } };
  const rows: [string, "emergency" | "debug", () => Promise<unknown>][] = [
    ["tool, no progress token", "emergency", () => client.callTool(calc)],
    ["tool, progress token (a notice per step)", "emergency", () => client.callTool(calc, undefined, token)],
    ["method, logging filtered (emergency)", "emergency", () => client.callTool(method)],
    ["method, logging on (print → message)", "debug", () => client.callTool(method)],
    ["method, logging and progress on", "debug", () => client.callTool(method, undefined, token)],
  ];
  const best = rows.map(() => Infinity);
  const counts = rows.map(() => ({ progress: 0, logs: 0 }));
  for (let round = 0; round <= ROUNDS; round++) {
    for (let r = 0; r < rows.length; r++) {
      await client.setLoggingLevel(rows[r][1]);
      const [p0, l0] = [progress, logs];
      const t = Bun.nanoseconds();
      for (let i = 0; i < N; i++) await rows[r][2]();
      const us = (Bun.nanoseconds() - t) / N / 1000;
      if (round > 0) best[r] = Math.min(best[r], us); // round 0 warms up
      counts[r] = { progress: (progress - p0) / N, logs: (logs - l0) / N };
    }
  }
  console.log("luma mcp over stdio: per-call time with progress and logging (best of %d rounds × %d calls)", ROUNDS, N);
  const base = (r: number) => (r < 2 ? best[0] : best[2]);
  for (let r = 0; r < rows.length; r++) {
    const extra = r === 0 || r === 2 ? "" : `  +${(best[r] - base(r)).toFixed(1)} µs`;
    const seen = `(${counts[r].progress.toFixed(1)} progress, ${counts[r].logs.toFixed(1)} log notices a call)`;
    console.log(`  ${rows[r][0].padEnd(42)} ${best[r].toFixed(1).padStart(8)} µs${extra.padEnd(14)} ${seen}`);
  }
  console.log("");
  await client.close();
}

if (import.meta.main) await benchMcpNotices();
