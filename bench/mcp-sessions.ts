/**
 * Memory held by `luma mcp --http` sessions nobody closes: rounds of 10,000 `initialize`
 * requests with no DELETE after them (a crashed client, or an attacker), and the server's
 * resident size after each round — with the sessions kept (the idle time far away, as every
 * session was before reclaiming) and with them reclaimed (LUMA_MCP_SESSION_IDLE_MS short,
 * each round waiting out the idle time). Freed memory is not handed back to the system at
 * once, so the figure that tells is the growth per round: linear when kept, flat when
 * reclaimed. Run on its own: `bun bench/mcp-sessions.ts [N] [ROUNDS]` (after `bun run
 * build`); Linux only (reads /proc).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const N = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const LUMA = resolve(import.meta.dir, "../dist/luma");
const SERVED = resolve(import.meta.dir, "../tests/mcp/fixtures/served.luma");
const TOOLS = resolve(import.meta.dir, "../tests/mcp/fixtures/served-tools.ts");
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } });

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

async function measure(idleMs: number): Promise<number[]> {
  const proc = Bun.spawn([LUMA, "mcp", SERVED, "--tool-module", TOOLS, "--http", "127.0.0.1:0"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LUMA_NO_CACHE: "1", LUMA_MCP_SESSION_IDLE_MS: String(idleMs) },
    stderr: "pipe",
  });
  const reader = proc.stderr.getReader();
  let err = "";
  let url: string | undefined;
  while (url === undefined) {
    const { value, done } = await reader.read();
    if (done) throw new Error(err);
    err += new TextDecoder().decode(value);
    url = /serving (\S+)/.exec(err)?.[1];
  }
  const rss = [rssMb(proc.pid)];
  const one = async () => {
    const res = await fetch(url!, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: INITIALIZE });
    await res.text();
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (let sent = 0; sent < N; sent += 16) await Promise.all(Array.from({ length: Math.min(16, N - sent) }, one));
    // Past the idle time and a sweep (when reclaiming), with time for the collector.
    await Bun.sleep(idleMs > 60_000 ? 2_000 : idleMs * 2 + 2_000);
    rss.push(rssMb(proc.pid));
  }
  proc.kill("SIGTERM");
  await proc.exited;
  return rss;
}

for (const [label, idleMs] of [["kept (idle 30 min)", 30 * 60_000], ["reclaimed (idle 1 s)", 1_000]] as const) {
  const rss = await measure(idleMs);
  const steps = rss.slice(1).map((mb, i) => `${mb >= rss[i] ? "+" : ""}${(mb - rss[i]).toFixed(0)}`).join(" ");
  console.log(`mcp sessions, ${label}: ${ROUNDS} x ${N} initialize, RSS ${rss.map((mb) => mb.toFixed(0)).join(" -> ")} MB (per round: ${steps} MB)`);
}
