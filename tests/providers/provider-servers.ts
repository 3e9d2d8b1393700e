/**
 * Test support for the transport's hostile-network tests: loopback servers that log every
 * request they get (any method, any path — so a test can say a server was never contacted),
 * answer the providers' routes with a valid final answer, and can instead redirect, stall,
 * or trickle; and the built binary run asynchronously against them (the servers live in the
 * test process and must keep answering while it runs).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KEYS, program, type ProviderKind } from "../ask/ask-harness";
import { familyOf } from "../support/fake-provider/fake-provider";
import { render } from "../support/fake-provider/wire-formats";
import { ensureBinary } from "../support/luma-binary";

export const ANSWER = { summary: "ok", score: 3 };

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

/** What a server does with one request instead of answering; undefined = answer normally. */
export type Misbehaviour = (path: string) => Response | Promise<Response> | undefined;

export interface LoggingServer {
  url: string;
  requests: LoggedRequest[];
  baseUrl(kind: ProviderKind): string;
  stop(): void;
}

export function loggingServer(misbehave?: Misbehaviour): LoggingServer {
  const requests: LoggedRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => (headers[k] = v));
      requests.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers });
      const odd = misbehave?.(url.pathname);
      if (odd) return odd;
      const family = familyOf(url.pathname);
      if (req.method !== "POST" || !family) return new Response("no route", { status: 404 });
      const r = render(family, { json: ANSWER }, requests.length, "m");
      return new Response(r.body, { status: r.status, headers: r.headers });
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    requests,
    baseUrl: (kind) => `${url}${{ openai: "/v1", "openai-responses": "/v1", "openai-compatible": "/v1", azure: "/openai/v1", "azure-dated": "/openai", anthropic: "", gemini: "" }[kind]}`,
    stop: () => server.stop(true),
  };
}

/** A response that sends its headers, then one byte every `everyMs` forever. */
export function tricklingResponse(everyMs: number): Response {
  return new Response(
    new ReadableStream({
      async pull(c) {
        await Bun.sleep(everyMs);
        c.enqueue(new TextEncoder().encode(" "));
      },
    }),
    { status: 200, headers: { "content-type": "application/json" } },
  );
}

/** A response that never comes. */
export const never = (): Promise<Response> => new Promise(() => {});

export interface BinaryRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * `luma main.luma` on a program asking model M (of `kind`) from agent A, the model's base URL
 * pointed at `baseUrl`; `ask` and `decls` replace the default `ask "Rate" -> Answer`, and
 * `toolModule` (TypeScript source) is loaded with --tool-module.
 */
export async function runProgram(
  kind: ProviderKind,
  baseUrl: string,
  opts: { modelExtra?: string; agentBody?: string; env?: Record<string, string>; args?: string[]; ask?: string; decls?: string; toolModule?: string } = {},
): Promise<BinaryRun> {
  const dir = mkdtempSync(join(tmpdir(), "luma-net-"));
  const file = join(dir, "main.luma");
  writeFileSync(file, program(kind, opts.agentBody ?? "", opts.ask ?? `ask "Rate" -> Answer`, { modelExtra: opts.modelExtra, decls: opts.decls }));
  const args = [...(opts.args ?? [])];
  if (opts.toolModule !== undefined) {
    writeFileSync(join(dir, "tools.ts"), opts.toolModule);
    args.push("--tool-module", join(dir, "tools.ts"));
  }
  const p = Bun.spawn([ensureBinary(), file, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, LUMA_NO_CACHE: "1", NO_COLOR: "1", ...KEYS[kind], LUMA_BASE_URL_M: baseUrl, ...opts.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { exitCode, stdout, stderr };
}
