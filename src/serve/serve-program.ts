/**
 * `luma serve FILE [--http HOST:PORT] [--agent A]… [--cors ORIGIN]` (issue #26 §4): a
 * program's agents behind web UIs, on Bun.serve.
 *
 *   POST /agents/{Agent}/{method}   JSON named arguments → the typed result as JSON (agent-endpoint.ts)
 *   POST /chat/{Agent}              the AI SDK's UI message stream, for `useChat` (chat-endpoint.ts)
 *
 * The program is opened once, as for a run (config, tool modules, stores, trace, telemetry),
 * and its top-level code does not run; every request shares its pipeline, cache, idempotency
 * store and threads store — which is how several `luma serve` processes on one Postgres or
 * Redis store share threads and run a write once. A journal is refused (E0678): its one run
 * would hold every request's steps.
 *
 * Each request: the bearer token first (serve-access.ts; 401 before anything is looked at),
 * a page of another origin refused (403: cross-site request forgery, even on loopback),
 * CORS only for `--cors ORIGIN`, a bounded body (request-body.ts), one trace of its own
 * (OpenTelemetry spans leave as they end), and an AbortSignal that fires when its client goes
 * away or the server gives up on it. A failure is `{ "error": { code, message, retryable } }`
 * with the status its code means (error-answer.ts).
 *
 * Stopping: the first SIGTERM or SIGINT stops accepting connections and lets the requests in
 * flight finish for up to LUMA_SERVE_DRAIN_MS (default 10 s); those still running then are
 * aborted (their tool calls' signals fire, claims are released) and given a moment to unwind,
 * then the trace and stores close and the process exits 0. A second signal exits at once.
 */
import { LumaError, runtimeError, startupError } from "../diagnostics/luma-error";
import type { Program } from "../syntax/ast";
import { openProgram, programHostOf, type StartOptions } from "../runtime/start-program";
import { openMcpTools } from "../mcp/open-mcp-tools";
import { exitProcess, installExitGuard } from "../runtime/base/exit-guard";
import { strayError } from "../runtime/run/stray-error";
import { createRunLifecycle, endingWith } from "../runtime/run/run-lifecycle";
import { redirectConsoleToStderr } from "../runtime/run/console-to-stderr";
import type { RunEndingError } from "../runtime/base/run-ending-error";
import { WorkInFlight } from "../runtime/run/work-in-flight";
import { createRuntime } from "../runtime/interpreter/runtime-context";
import { authorized, corsHeaders, foreignPage, serveAccess, type ServeAccess } from "./serve-access";
import { servedAgents } from "./served-agents";
import { AgentArgs, agentArgsFlags } from "./served-agent-args";
import { openChatThreads } from "./chat-threads";
import { ChatTurns } from "./chat-turns";
import { serveLimits, type ServeLimits } from "./serve-limits";
import { errorResponse } from "./error-answer";
import { routeRequest, type Routes } from "./routes";

export interface ServeHttpOptions extends Omit<StartOptions, "args" | "interactive"> {
  /** `--http HOST:PORT` (default 127.0.0.1:8787). */
  http?: string;
  /** `--agent A`, repeatable: serve only these agents. */
  agents: string[];
  /** `--cors ORIGIN`: the one origin whose pages may call. */
  cors?: string;
  /** `--agent-args AGENT=JSON` (repeatable): fixed parameters of agents declared with them. */
  agentArgs?: string[];
}

/** After the drain, aborted requests get this long to unwind (stopAll settles handlers within 1 s). */
const UNWIND_MS = 3_000;
const SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;

const unauthorizedResponse = (headers: Record<string, string>) =>
  errorResponse(new LumaError({ code: "REQUEST_UNAUTHORIZED", message: "Unauthorized: send Authorization: Bearer <the server's LUMA_SERVE_TOKEN>." }), {
    ...headers,
    "www-authenticate": 'Bearer realm="luma serve"',
  });

const foreignPageResponse = () =>
  errorResponse(new LumaError({ code: "REQUEST_FORBIDDEN", message: "A browser page of another origin may not call this server (start it with --cors ORIGIN to allow one)." }));

/** Serves until SIGTERM/SIGINT, then drains (see above). */
export async function serveHttpProgram(program: Program, opts: ServeHttpOptions): Promise<void> {
  const access = serveAccess(opts.http, opts.cors, opts.env);
  const limits = serveLimits(opts.env);
  const argFlags = agentArgsFlags(opts.agentArgs ?? []);
  const lifecycle = createRunLifecycle();
  // The first signal starts the drain; a second exits at once (a request that will not end).
  let signalled: ((code: number) => void) | undefined;
  const draining = new Promise<number>((done) => (signalled = done));
  let received = false;
  const listeners = (Object.keys(SIGNALS) as (keyof typeof SIGNALS)[]).map((signal) => {
    const listener = () => {
      if (received) exitProcess(SIGNALS[signal]);
      received = true;
      signalled?.(SIGNALS[signal]);
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  let stray: RunEndingError | undefined;
  const unguard = installExitGuard((thrown) => {
    lifecycle.stop((stray ??= strayError(thrown, lifecycle.inFlight())));
    signalled?.(1);
  });
  const restoreConsole = redirectConsoleToStderr(opts.stderr);
  try {
    const open = await openProgram(program, { ...opts, interactive: false, openRemoteTools: openMcpTools, servedBy: "luma serve" }, lifecycle);
    const threads = await openChatThreads(open.threads, opts).catch(async (e) => {
      await open.close();
      throw e;
    });
    try {
      // The host of a `luma FILE` run; what a served call prints goes to the log (stderr).
      const rt = createRuntime(program, { ...programHostOf(open, opts, "calls"), args: [], stdout: opts.stderr, stderr: opts.stderr });
      const served = servedAgents(program, open.schemas, opts.agents);
      const agentArgs = new AgentArgs(program, rt, argFlags, served.names);
      const routes: Routes = {
        rt, served, agentArgs, telemetry: open.telemetry, limits,
        chat: open.ask && { rt, runner: open.ask, threads, turns: new ChatTurns(), telemetry: open.telemetry, limits, agentArgs, durable: open.callRuns !== undefined },
      };
      await listen(routes, access, opts.stderr, draining, limits, lifecycle, threads.shown);
    } finally {
      await threads.close();
      await open.close();
    }
    if (stray !== undefined) throw stray;
  } finally {
    restoreConsole();
    unguard();
    for (const [signal, listener] of listeners) process.off(signal, listener);
  }
}

async function listen(
  routes: Routes,
  access: ServeAccess,
  log: (line: string) => void,
  draining: Promise<number>,
  limits: ServeLimits,
  lifecycle: ReturnType<typeof createRunLifecycle>,
  threadsShown: string,
): Promise<void> {
  const inFlight = new WorkInFlight();
  const aborts = new Set<AbortController>();
  let http: ReturnType<typeof Bun.serve>;
  try {
    http = Bun.serve({
      hostname: access.hostname,
      port: access.port,
      // A connection with no request in it is closed after the read limit (idle sockets, slow headers).
      idleTimeout: limits.idleSeconds,
      async fetch(req, server) {
        const cors = corsHeaders(req, access);
        // The token first: without it nothing is told, not even whether an agent exists.
        if (!authorized(req, access)) return unauthorizedResponse(cors);
        if (req.method === "OPTIONS") return new Response(null, { status: cors["access-control-allow-origin"] ? 204 : 403, headers: cors });
        // A page of another site (cross-site request forgery, even against 127.0.0.1) runs nothing.
        if (foreignPage(req, access)) return foreignPageResponse();
        // A request being answered is not idle: a chat stream stays open while a tool runs or
        // the model thinks (its body's own deadline is request-body.ts's).
        server.timeout(req, 0);
        const abort = new AbortController();
        req.signal.addEventListener("abort", () => abort.abort(), { once: true });
        aborts.add(abort);
        const answer = routeRequest(routes, req, abort, cors, () => server.timeout(req, limits.idleSeconds));
        const work = inFlight.track(answer.then((a) => a.done));
        void work.finally(() => aborts.delete(abort));
        const { response } = await answer;
        // A JSON answer is complete: once sent, the connection is idle again and the read limit
        // applies to it once more (a stream does so as it ends: `sent` below).
        if (response.headers.get("content-type") !== "text/event-stream") server.timeout(req, limits.idleSeconds);
        return response;
      },
    });
  } catch (e) {
    throw startupError(`luma serve --http ${access.hostname}:${access.port}: cannot listen there (${(e as Error).message}).`, { catalogCode: "E0670" });
  }
  const host = access.hostname.includes(":") ? `[${access.hostname}]` : access.hostname;
  log(`luma serve: serving http://${host}:${http.port} (agents: ${routes.served.names.join(", ") || "none"}; chat threads: ${threadsShown})`);
  const code = await Promise.race([draining, lifecycle.untilStopped().then(() => 1)]);
  // No new connections; the requests in flight finish, or are aborted at the deadline.
  void http.stop(false);
  await inFlight.settled(limits.drainMs);
  for (const a of aborts) a.abort();
  // A chat turn waiting for its client's approval or output will not get it now.
  routes.chat?.turns.refuseAll();
  lifecycle.stop(endingWith(runtimeError("RUNTIME_ERROR", `luma serve stopped (signal, exit code ${code}).`), 0, true));
  await inFlight.settled(UNWIND_MS);
  await http.stop(true);
}
