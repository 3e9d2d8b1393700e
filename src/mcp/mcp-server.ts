/**
 * `luma mcp FILE`: the program's tools and agent methods as an MCP server, built on the
 * official SDK's low-level `Server` (this module, and so the SDK, loads only in this mode).
 *
 * One program is opened (openProgram: config, registry, store, trace — the same start-up
 * as a run, so the same rejections with exit code 2) and its body does not run. Every
 * session gets its own SDK `Server` over one shared tool pipeline: the cache, the
 * idempotency store and the trace are the program's, whichever client calls.
 *
 * Per call, the session supplies what only the protocol knows: the client's cancellation
 * (`notifications/cancelled` aborts the SDK's request signal, which aborts the handler's
 * AbortSignal) and approval — `tool_policy: "approval"` asks the client through
 * elicitation (a form with one boolean) when it declared the capability, and is denied with
 * TOOL_PERMISSION_DENIED when it did not; a client tool's answer and an approval's note are
 * asked the same way, with a form of their schema (elicit-value.ts).
 *
 * Transports: stdio by default (stdout is the protocol, so `print` goes to stderr), or
 * Streamable HTTP on `--http HOST:PORT` at `/mcp`, one session per `initialize`, with the
 * SDK's DNS-rebinding protection limited to the address it listens on: the `Host` must name
 * it, and an `Origin`, when sent, must be a page of it. A non-loopback address also needs a
 * bearer token and the host names clients use (http-access.ts), and a session idle for
 * `LUMA_MCP_SESSION_IDLE_MS` is closed (idle-sessions.ts).
 *
 * Stopping goes through the run's lifecycle (run-lifecycle.ts), as a run's ending does: the
 * first SIGINT/SIGTERM, or the stdio client hanging up, aborts every call in flight (its
 * handler's AbortSignal fires), and the server waits for those calls to unwind — claims
 * released, trace events written — before the trace and stores close and it exits 0. Without
 * this a signal killed the process mid-call (no abort, no trace event, a claim left to its
 * lease), and a hang-up closed the trace under a call still unwinding. A second signal exits
 * at once (stop-on-signal.ts). A tool module cannot end the process either (base/exit-guard.ts).
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { runtimeError, startupError } from "../diagnostics/luma-error";
import type { Program } from "../syntax/ast";
import { openProgram, programHostOf, type StartOptions } from "../runtime/start-program";
import { openServedMcpTools } from "./open-mcp-tools";
import { exitProcess, installExitGuard } from "../runtime/base/exit-guard";
import { strayError } from "../runtime/run/stray-error";
import { createRunLifecycle, endingWith, type RunLifecycle } from "../runtime/run/run-lifecycle";
import { stopOnSignal } from "../runtime/run/stop-on-signal";
import { redirectConsoleToStderr } from "../runtime/run/console-to-stderr";
import { RunEndingError } from "../runtime/base/run-ending-error";
import { WorkInFlight } from "../runtime/run/work-in-flight";
import { EXIT_BROKEN_PIPE } from "../runtime/run/write-fully";
import { createRuntime } from "../runtime/interpreter/runtime-context";
import type { ServeCallDeps } from "./serve-call";
import { servedTools, type ServedTool } from "./served-tools";
import { httpPlan, serveHttp } from "./serve-http";
import { loadRunConfig } from "../runtime/run-config";
import type { McpServeConfig } from "../config/config-types";
import { servedAgentArgs } from "../runtime/interpreter/agent-args-json";
import { inactiveToolsOf } from "../runtime/interpreter/agent-context";
import { isOversizeMessage, MAX_MESSAGE_BYTES, MAX_MESSAGE_TEXT } from "./message-size-limit";
import { screenedInput } from "./screen-stdio-lines";
import { sessionServer, type ServedCatalog, type Session } from "./session-server";
import { servedResources } from "./served-resources";
import { printSink, stderrSink } from "./call-notices";
import { pageSizeFrom } from "./list-pages";
import { samplingTransport } from "./sampling-transport";
import { fetchTransport } from "../runtime/providers/transport";

export interface ServeOptions extends Omit<StartOptions, "args" | "interactive"> {
  agent?: string;
  /** `--agent-args`: the JSON object of the served agent's parameters (served-agent-args.ts). */
  agentArgs?: string;
  /** `HOST:PORT` for Streamable HTTP; stdio when absent. */
  http?: string;
  /** `--allowed-hosts`: comma-separated `host` or `host:port`, for the Host check (needed off loopback). */
  allowedHosts?: string;
}

/** Stopping waits this long for the calls in flight to unwind (stopAll settles them within 1 s). */
const UNWIND_MS = 3_000;

/** Serves until the client goes away (stdio) or the process is told to stop (both). */
export async function serveProgram(program: Program, opts: ServeOptions): Promise<void> {
  const plan = opts.http === undefined ? undefined : httpPlan(opts.http, opts.allowedHosts, opts.env, (await serveConfig(opts)).oauth);
  // Installed before start-up: a client told the address may stop the server at once.
  const lifecycle = createRunLifecycle();
  const unlisten = stopOnSignal(lifecycle, exitProcess);
  // As in a run (base/exit-guard.ts): a handler's `process.exit()` fails its call with
  // TOOL_HANDLER_ERROR instead of killing the server under every session; an error thrown
  // outside any call stops the server like a signal, and it exits with that error (1).
  let stray: RunEndingError | undefined;
  const unguard = installExitGuard((thrown) => lifecycle.stop((stray ??= strayError(thrown, lifecycle.inFlight()))));
  // A handler's console.log is a debug line (console-to-stderr.ts): over stdio it went into
  // the protocol stream, where a line of JSON could pass for an answer. stdout carries the
  // protocol on stdio, so the program's own output (print) goes to stderr there.
  // A line written during a served call also goes to its client as a log notification (call-notices.ts).
  const stderr = stderrSink(opts.stderr);
  const stdout = printSink(opts.http === undefined ? opts.stderr : opts.stdout);
  const restoreConsole = redirectConsoleToStderr(stderr);
  try {
    const pageSize = pageSizeFrom(opts.env);
    // A `provider: "mcp"` model's requests go to the calling client (sampling-transport.ts).
    const askHooks = { ...opts.askHooks, transport: samplingTransport(opts.askHooks?.transport ?? fetchTransport({ maxResponseBytes: opts.askHooks?.maxResponseBytes })) };
    const open = await openProgram(program, { ...opts, stdout, stderr, askHooks, interactive: false, openRemoteTools: openServedMcpTools, servedBy: "luma mcp" }, lifecycle);
    // The `tools/call` answers still being worked out, so stopping can wait for them.
    const calls = new WorkInFlight();
    try {
      // The host of a `luma FILE` run (env, max_agent_depth, calls, …), printing to the client's sinks.
      const interpreter = createRuntime(program, { ...programHostOf(open, opts, "calls"), args: [], stdout, stderr });
      // An agent with parameters is served with the ones `--agent-args` gives; its tools whose `when` is false are not served.
      const agentArgs = servedAgentArgs(program, interpreter, opts.agent, opts.agentArgs);
      const inactive = agentArgs && opts.agent ? inactiveToolsOf(interpreter, opts.agent, agentArgs) : new Set<string>();
      const tools = servedTools(program, open.schemas, opts.agent).filter((t) => t.kind !== "tool" || !inactive.has(t.name));
      const deps: ServeCallDeps = { tools: open.tools, interpreter, telemetry: open.telemetry, agentArgs };
      const label = `luma mcp ${opts.file}`;
      const catalog: ServedCatalog = { tools, resources: servedResources(tools), pageSize };
      const makeServer = (scopes?: readonly string[]) => sessionServer(deps, catalog, label, calls, scopes);
      if (plan === undefined) await serveStdio(makeServer, lifecycle);
      else await serveHttp(makeServer, plan, opts.stderr, lifecycle, scopesOf(tools));
      await calls.settled(UNWIND_MS);
    } finally {
      await open.close();
    }
    if (stray !== undefined && lifecycle.stopped() === stray) throw stray;
  } finally {
    restoreConsole();
    unguard();
    unlisten();
  }
}

/** The client hung up: the calls it is still waiting for are abandoned, stopped as a signal stops them. */
const clientGone = () => endingWith(runtimeError("RUNTIME_ERROR", "The MCP client closed the connection."), 0, true);

async function serveStdio(makeServer: () => Session, lifecycle: RunLifecycle): Promise<void> {
  const session = makeServer();
  const server = session.server;
  const closed = new Promise<void>((done) => (server.onclose = done));
  // The transport reports this just before it closes the connection.
  let oversize = false;
  server.onerror = (e) => void (oversize ||= isOversizeMessage(e));
  // The SDK leaves a failed write to stdout unheard (an uncaught EPIPE and its stack trace):
  // the client closed its end, so it is gone as surely as when it closes stdin.
  let broken: RunEndingError | undefined;
  const stdoutFailed = (e: NodeJS.ErrnoException) => {
    broken ??= e.code === "EPIPE"
      ? new RunEndingError({ code: "RUNTIME_ERROR", message: "stdout was closed by the MCP client" }, EXIT_BROKEN_PIPE, true)
      : new RunEndingError({ code: "RUNTIME_ERROR", message: `cannot write to stdout: ${e.code ?? e.message}` }, 1);
    void server.close();
  };
  process.stdout.on("error", stdoutFailed);
  // Lines the SDK would drop unanswered (not JSON, a batch, params that are not an object) are answered first.
  const input = screenedInput(process.stdin, (answer) => void transport.send(answer), MAX_MESSAGE_BYTES);
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  await session.connect(transport);
  // The SDK's stdio transport does not notice the end of stdin: the client hanging up does.
  process.stdin.once("end", () => void server.close());
  await Promise.race([closed, lifecycle.untilStopped()]);
  lifecycle.stop(clientGone());
  await server.close();
  if (broken) throw broken;
  if (oversize) {
    throw runtimeError("RUNTIME_ERROR", `luma mcp: the client sent a message larger than ${MAX_MESSAGE_TEXT} (the limit of one stdio message); the connection was closed.`);
  }
}

/** `mcp_serve` of the program's config (a built agent's embedded one; read again by start-up: serving settings are needed before it). */
async function serveConfig(opts: ServeOptions): Promise<McpServeConfig> {
  const { config } = await loadRunConfig(opts);
  return config.config.mcp_serve ?? {};
}

/** The scopes the served tools use: the protected-resource metadata's `scopes_supported`. */
const scopesOf = (tools: readonly ServedTool[]): string[] => [...new Set(tools.flatMap((t) => (t.kind === "tool" && t.scope !== undefined ? [t.scope] : [])))];
