/**
 * Issue #14 figure: per-call overhead of Luma's pipeline in front of an MCP tool, against
 * calling the same tool with the official SDK client directly — in one run, against two
 * connections to the same kind of server (the SDK stdio server of tests/mcp/fixtures).
 *
 * The Luma side is what a program gets: the registry built from `mcp: "local"` (start-up
 * connects, lists and contract-checks), then `createToolInvoker(...).call`, so each call
 * runs input validation, the MCP handler (the SDK `callTool`, with the pipeline's signal),
 * output validation and telemetry. The direct side is `client.callTool` with the same
 * arguments, with and without an AbortSignal (the pipeline hands the SDK one, so that a
 * timeout sends `notifications/cancelled`; that row shows what the signal alone costs), and
 * Luma's handler called without the pipeline (what the SDK wrapper costs). Rounds interleave the two, so load on the machine hits both alike; the figure
 * is the best round of each, and their difference is Luma's share.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join, resolve } from "node:path";
import { parse } from "../src/syntax/parse";
import { createSchemaTable } from "../src/schema/schema-table";
import { createToolInvoker } from "../src/runtime/tools/pipeline";
import { loadToolRegistry } from "../src/runtime/tools/registry/load-tool-registry";
import { openMcpTools } from "../src/mcp/open-mcp-tools";

const SERVER = resolve(import.meta.dir, "../tests/mcp/fixtures/stdio-server.ts");
const SOURCE = `
schema Hits { hits: string[] }
tool search(q: string @length(1, 50), limit?: int) -> Hits { mcp: "local"  side_effects: "read" }
`;
const N = 2_000;
const ROUNDS = 5;

export async function benchMcpOverhead(): Promise<void> {
  const program = parse(SOURCE, join(import.meta.dir, "mcp.luma")).program!;
  const config = { tool_modules: [], tool_contexts: {}, mcp_servers: { local: { command: "bun", args: [SERVER] } } };
  const registry = await loadToolRegistry({
    program,
    config: { config, projectDir: import.meta.dir },
    cliModules: [],
    cwd: import.meta.dir,
    env: process.env,
    openRemoteTools: openMcpTools,
  });
  const invoker = createToolInvoker({ program, schemas: createSchemaTable(program), registry, config, env: {}, warn: () => {}, trace: () => {} });

  const client = new Client({ name: "bench", version: "1" }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: "bun", args: [SERVER], stderr: "ignore" }));
  await client.listTools(); // the SDK compiles the output validator here, as Luma's start-up does

  const args = { q: "mcp", limit: 2 };
  const scenarios: [string, () => Promise<unknown>][] = [
    ["SDK client.callTool directly", () => client.callTool({ name: "search", arguments: args })],
    ["SDK client.callTool with an AbortSignal", () => client.callTool({ name: "search", arguments: args }, undefined, { signal: new AbortController().signal })],
    ["Luma's MCP handler alone, no pipeline", () => registry.handler("search")!(args, new AbortController().signal)],
    ["Luma pipeline → MCP tool (tool search)", () => invoker.call({ tool: "search", input: args, mode: "direct" })],
  ];
  const run = async (f: () => Promise<unknown>) => {
    const t = Bun.nanoseconds();
    for (let i = 0; i < N; i++) await f();
    return (Bun.nanoseconds() - t) / N / 1000;
  };
  const best = scenarios.map(() => Infinity);
  for (let round = 0; round <= ROUNDS; round++) {
    for (let s = 0; s < scenarios.length; s++) {
      const us = await run(scenarios[s][1]);
      if (round > 0) best[s] = Math.min(best[s], us); // round 0 warms up
    }
  }
  console.log("MCP tool over stdio: per-call time (best of %d rounds × %d calls)", ROUNDS, N);
  console.log(`  ${scenarios[0][0].padEnd(44)} ${best[0].toFixed(1).padStart(7)} µs`);
  for (let s = 1; s < scenarios.length; s++) {
    console.log(`  ${scenarios[s][0].padEnd(44)} ${best[s].toFixed(1).padStart(7)} µs  overhead +${(best[s] - best[0]).toFixed(1)} µs`);
  }
  console.log("");
  await client.close();
  await registry.close?.();
}

if (import.meta.main) await benchMcpOverhead();
