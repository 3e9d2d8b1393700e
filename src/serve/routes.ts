/**
 * The two endpoints of `luma serve` and what answers each; every refusal is a JSON error
 * with its status (error-answer.ts). `done` settles when the answer is complete — at once
 * for a JSON answer, at the stream's end for a chat — so stopping can wait for it.
 */
import { LumaError } from "../diagnostics/luma-error";
import type { Runtime } from "../runtime/interpreter/runtime-context";
import type { Telemetry } from "../runtime/telemetry/telemetry";
import { callServedMethod } from "./agent-endpoint";
import { answerChat, resumeChat, type ChatDeps } from "./chat-endpoint";
import { agentNotFound, errorResponse } from "./error-answer";
import type { ServedAgents } from "./served-agents";
import type { BodyLimits } from "./request-body";
import type { AgentArgs } from "./served-agent-args";

export interface Routes {
  rt: Runtime;
  served: ServedAgents;
  /** Absent when the program declares no model: nothing can chat. */
  chat?: ChatDeps;
  /** OpenTelemetry export, when configured: each request is a trace of its own. */
  telemetry?: Pick<Telemetry, "newTrace">;
  limits: BodyLimits;
  agentArgs: AgentArgs;
}

export interface Answer {
  response: Response;
  done: Promise<void>;
}

const ENDPOINT = /^\/(?:agents\/([^/]+)\/([^/]+)|chat\/([^/]+)(?:\/([^/]+)\/(stream))?)\/?$/;

const json = (value: unknown, headers: Record<string, string>): Answer => ({
  response: new Response(JSON.stringify(value ?? null), { headers: { "content-type": "application/json", ...headers } }),
  done: Promise.resolve(),
});

/** `sent`: a stream's last bytes are going out (the connection is about to be idle again). */
async function route(routes: Routes, req: Request, abort: AbortController, cors: Record<string, string>, sent: () => void): Promise<Answer> {
  const m = ENDPOINT.exec(new URL(req.url).pathname);
  if (m === null) throw agentNotFound(`No endpoint at ${new URL(req.url).pathname}: luma serve answers POST /agents/{Agent}/{method}, POST /chat/{Agent} and GET /chat/{Agent}/{id}/stream.`);
  // A resume (`useChat`'s `resume: true`) is the one GET.
  const allowed = m[5] === undefined ? "POST" : "GET";
  if (req.method !== allowed) {
    return { response: Response.json({ error: { code: "REQUEST_INVALID", message: `${req.method} is not served here: send ${allowed}.`, retryable: false } }, { status: 405, headers: { ...cors, allow: allowed } }), done: Promise.resolve() };
  }
  const [agent, method, chatAgent, chatId] = [m[1], m[2], m[3], m[4]].map((s) => (s === undefined ? undefined : decodeURIComponent(s)));
  if (chatAgent === undefined) {
    // With a journal the call is a run of its own (call-runs.ts): its id answers as `luma-run-id`.
    const run: Record<string, string> = {};
    const started = (id: string) => void (run["luma-run-id"] = id);
    return json(await callServedMethod(routes.rt, routes.served, { agent: agent!, method: method!, req, signal: abort.signal, limits: routes.limits, agentArgs: routes.agentArgs, started }), { ...cors, ...run });
  }
  const decl = routes.served.chatAgent(chatAgent);
  if (routes.chat === undefined) throw agentNotFound(`Agent '${chatAgent}' has no model to chat with.`);
  const { response, done } = chatId === undefined ? await answerChat(routes.chat, decl, req, abort, sent) : resumeChat(routes.chat, chatId, sent);
  for (const [k, v] of Object.entries(cors)) response.headers.set(k, v);
  return { response, done };
}

/** Answers one request; never throws (a failure is its JSON error). */
export async function routeRequest(routes: Routes, req: Request, abort: AbortController, cors: Record<string, string>, sent: () => void): Promise<Answer> {
  const answer = () =>
    route(routes, req, abort, cors, sent).catch((e: unknown) => ({
      response: errorResponse(e instanceof LumaError ? e : new LumaError({ code: "RUNTIME_ERROR", message: e instanceof Error ? e.message : String(e) }), cors),
      done: Promise.resolve(),
    }));
  return routes.telemetry ? routes.telemetry.newTrace(answer) : answer();
}
