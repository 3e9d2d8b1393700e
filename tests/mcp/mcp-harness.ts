/**
 * Test support for MCP: the official SDK's real `Client` talking to a real `dist/luma mcp`
 * process, over stdio or Streamable HTTP — no mocks between them. `connectLuma` starts the
 * server with a minimal environment (plus what a test adds) and can act as a client that
 * supports elicitation (answering each request with `onElicit`) or one that does not.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureBinary } from "../support/luma-binary";

export const FIXTURES = resolve(import.meta.dir, "fixtures");
export const SERVED = join(FIXTURES, "served.luma");
export const SERVED_TOOLS = join(FIXTURES, "served-tools.ts");

export const tempDir = () => mkdtempSync(join(tmpdir(), "luma-mcp-"));

export interface ClientOptions {
  /** Declare the elicitation capability and answer with this (it also gets the form's requestedSchema). */
  onElicit?: (message: string, requestedSchema: unknown) => ElicitResult | Promise<ElicitResult>;
  env?: Record<string, string>;
  /** HTTP headers for every request (Authorization for a token-protected server). */
  headers?: Record<string, string>;
}

const baseEnv = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  LUMA_NO_CACHE: "1",
  NO_COLOR: "1",
  ...extra,
});

function makeClient(opts: ClientOptions): Client {
  const client = new Client(
    { name: "luma-tests", version: "1.0.0" },
    { capabilities: opts.onElicit ? { elicitation: { form: {} } } : {} },
  );
  if (opts.onElicit) {
    const answer = opts.onElicit;
    client.setRequestHandler(ElicitRequestSchema, (req) => answer(req.params.message, (req.params as { requestedSchema?: unknown }).requestedSchema));
  }
  return client;
}

export interface StdioSession {
  client: Client;
  /** What `luma mcp` wrote to stderr so far. */
  stderr: () => string;
  close(): Promise<void>;
}

/** `luma mcp ARGS…` over stdio, connected. */
export function connectLuma(args: string[], opts: ClientOptions = {}): Promise<StdioSession> {
  return connectCommand(ensureBinary(), ["mcp", ...args], { ...opts, env: baseEnv(opts.env) });
}

/** Any command that serves MCP over stdio (a built agent's `--luma-mcp`), with exactly `opts.env`, connected. */
export async function connectCommand(command: string, args: string[], opts: ClientOptions & { cwd?: string } = {}): Promise<StdioSession> {
  const transport = new StdioClientTransport({ command, args, env: opts.env, cwd: opts.cwd, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => void (err += chunk.toString()));
  const client = makeClient(opts);
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

export interface HttpServer {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  stderr: () => string;
  stop(): Promise<number>;
}

/** `luma mcp ARGS… --http ADDRESS` (127.0.0.1:0); resolves once it printed the address it serves. */
export async function startLumaHttp(args: string[], env: Record<string, string> = {}, address = "127.0.0.1:0"): Promise<HttpServer> {
  const proc = Bun.spawn([ensureBinary(), "mcp", ...args, "--http", address], {
    env: baseEnv(env),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let err = "";
  const decoder = new TextDecoder();
  const reader = proc.stderr.getReader();
  let url: string | undefined;
  while (url === undefined) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`luma mcp --http exited before serving:\n${err}`);
    err += decoder.decode(value);
    url = /serving (http:\/\/\S+)/.exec(err)?.[1];
  }
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      err += decoder.decode(value);
    }
  })();
  return {
    url,
    proc,
    stderr: () => err,
    async stop() {
      proc.kill("SIGTERM");
      return proc.exited;
    },
  };
}

export async function connectHttp(url: string, opts: ClientOptions = {}): Promise<Client> {
  const client = makeClient(opts);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: opts.headers ?? {} } }));
  return client;
}

/** The JSON body of a `tools/call` answer's text content. */
export const textJson = (result: unknown): Record<string, unknown> =>
  JSON.parse(((result as { content: { text: string }[] }).content)[0].text);

/** Waits (polling, no deadline of its own: the test's timeout bounds it) until `ready()` holds. */
export async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await Bun.sleep(10);
}

export const EVERYTHING = resolve(import.meta.dir, "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const STDIO_SERVER = join(FIXTURES, "stdio-server.ts");

/** The `mcp_servers` entries tests use: server-everything and the SDK stdio server of fixtures/. */
export const stdioServers = (extra: Record<string, unknown> = {}) => ({
  everything: { command: "bun", args: [EVERYTHING, "stdio"] },
  local: { command: "bun", args: [STDIO_SERVER] },
  ...extra,
});

/** A project directory with luma.config.json and main.luma; returns the program path. */
export function project(config: object, program: string): { dir: string; file: string } {
  const dir = tempDir();
  writeFileSync(join(dir, "luma.config.json"), JSON.stringify(config, null, 2));
  writeFileSync(join(dir, "main.luma"), program);
  return { dir, file: join(dir, "main.luma") };
}

/**
 * `dist/luma ARGS…` without blocking this process (an MCP server in the test process must
 * keep answering while the binary runs).
 */
export async function runLumaAsync(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const proc = Bun.spawn([ensureBinary(), ...args], { cwd: opts.cwd, env: baseEnv(opts.env), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { exitCode, stdout, stderr };
}
