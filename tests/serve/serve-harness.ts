/**
 * Test support for `luma serve` (issue #26 §4): a project directory, the real `dist/luma
 * serve` as a child process on a free port (read from its start-up line), and a way to stop
 * it with a signal and see how it ended.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";

export const TOOLS = `export const lumaTools = {
  lookup_order: (i: { id: number }) => ({ id: i.id, status: "shipped" }),
  slow_lookup: async (i: { id: number }) => { await Bun.sleep(Number(process.env.SLOW_MS ?? 300)); return { id: i.id, status: "late" }; },
  fail_lookup: () => { throw new Error("database down"); },
  cancel_order: (i: { id: number }) => ({ id: i.id, status: "cancelled" }),
  issue_refund: (i: { id: number }) => ({ id: i.id, refunded: true }),
};
`;

export function project(source: string, config?: object): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-serve-"));
  writeFileSync(join(dir, "main.luma"), source);
  writeFileSync(join(dir, "tools.ts"), TOOLS);
  if (config) writeFileSync(join(dir, "luma.config.json"), JSON.stringify(config));
  return dir;
}

export interface Served {
  url: string;
  /** Sends `signal` and resolves with the exit code and everything written to stderr. */
  stop(signal?: NodeJS.Signals): Promise<{ exitCode: number; stderr: string }>;
  stderr(): string;
}

export interface Ended {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const cleanEnv = (env: Record<string, string | undefined>) => ({ PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...env });

/** `luma serve main.luma --tool-module tools.ts …extra` in `dir`; resolves once it listens. */
export function serve(dir: string, extra: string[], env: Record<string, string | undefined> = {}): Promise<Served> {
  return serveCommand([ensureBinary(), "serve", join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), "--http", "127.0.0.1:0", ...extra], dir, cleanEnv(env));
}

/** Any command that serves HTTP as `luma serve` or `luma mcp --http` do (a built agent's), with exactly `env`; resolves once it listens. */
export async function serveCommand(command: string[], cwd: string, env: Record<string, string | undefined>): Promise<Served> {
  const proc = Bun.spawn(command, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let err = "";
  const decoder = new TextDecoder();
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      err += decoder.decode(value, { stream: true });
    }
  })();
  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  while (url === undefined) {
    // `luma serve: serving http://…` (and `luma mcp`'s line, for a built agent's --luma-mcp --http).
    const m = /luma (?:serve|mcp): serving (http:\/\/\S+)/.exec(err);
    if (m) url = m[1];
    else if (proc.exitCode !== null || Date.now() > deadline) {
      await pump;
      throw new Error(`luma serve did not start (exit ${proc.exitCode}):\n${err}`);
    } else await Bun.sleep(20);
  }
  return {
    url,
    stderr: () => err,
    async stop(signal = "SIGTERM") {
      proc.kill(signal);
      const exitCode = await proc.exited;
      await pump;
      return { exitCode, stderr: err };
    },
  };
}

/** `luma serve …` that is expected to end by itself (a start-up error). */
export async function serveEnds(dir: string, extra: string[], env: Record<string, string | undefined> = {}): Promise<Ended> {
  const proc = Bun.spawn([ensureBinary(), "serve", join(dir, "main.luma"), "--tool-module", join(dir, "tools.ts"), ...extra], {
    cwd: dir, env: cleanEnv(env), stdin: "ignore", stdout: "pipe", stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr };
}

export const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
