/**
 * `luma ui`: the local web app, served by `luma` itself with Bun.serve. The page and its
 * script are embedded in the binary (ui-assets.generated.ts, bundled from client/ at build
 * time): nothing is fetched from elsewhere, and the page's Content-Security-Policy says so.
 *
 *   GET  /                 the page (with this process's CSRF token)
 *   GET  /app.js, /app.css its script and style
 *   GET  /api/runs         every run of the journals and traces (RunSummary[])
 *   GET  /api/run?id=      one run's timeline (RunDetail)
 *   GET  /api/usage        the usage charts' points (UsageEntry[])
 *   GET  /api/evals        the evals `luma eval` recorded in the journals (EvalView[])
 *   GET  /api/threads      the threads store's threads (ids, exchanges)
 *   GET  /api/thread?id=   a stored thread's messages
 *   POST /api/act          approve · deny · answer a waiting call (journal-admin.ts, as
 *                          `luma approve` / `luma deny` / `luma runs answer` do: bound to
 *                          the digest the page showed)
 *
 * The UI writes nothing but decisions and answers. Errors go back as `{ error, code }` JSON
 * (a LumaError's message and code), never a stack trace.
 */
import { isLumaError, startupError } from "../diagnostics/luma-error";
import { answer, decide } from "../runtime/journal/journal-admin";
import { APP_CSS, APP_JS } from "./ui-assets.generated";
import { makeGuard, type Guard } from "./ui-guard";
import { allEvals, allRuns, allUsage, journalOf, oneRun, type UiSources } from "./ui-sources";
import { listThreads, readThread } from "./thread-source";

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const page = (csrf: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Luma runs</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="luma-csrf" content="${csrf}">
<link rel="icon" href="data:,"><link rel="stylesheet" href="/app.css"></head>
<body><div id="app"></div><script type="module" src="/app.js"></script></body></html>`;

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } });

const failure = (e: unknown): Response =>
  isLumaError(e) ? json({ error: e.message, code: e.code ?? e.catalogCode ?? null }, 400) : json({ error: "internal error: " + (e instanceof Error ? e.message : String(e)), code: "RUNTIME_ERROR" }, 500);

interface ActBody {
  id?: unknown;
  step?: unknown;
  digest?: unknown;
  action?: unknown;
  json?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** A decision from the page: the same rules as the commands — pending call, exact digest, the wanted value's schema. */
async function act(u: UiSources, body: ActBody): Promise<Response> {
  const id = str(body.id);
  const step = str(body.step);
  const digest = str(body.digest);
  const where = id === undefined ? undefined : journalOf(u, id);
  if (where === undefined || step === undefined || digest === undefined) return json({ error: "Refused: a decision names the run (id), the step and the input digest shown; nothing was recorded.", code: "VALUE_INVALID" }, 400);
  const note = str(body.json);
  switch (body.action) {
    case "approve":
      return json({ done: await decide(where.opts, "approved", where.run, step, digest, note) });
    case "deny":
      return json({ done: await decide(where.opts, "denied", where.run, step, digest) });
    case "answer":
      if (note === undefined) return json({ error: "Refused: an answer needs its JSON value; nothing was recorded.", code: "VALUE_INVALID" }, 400);
      return json({ done: await answer(where.opts, where.run, step, digest, note) });
    default:
      return json({ error: "Refused: action is approve, deny or answer; nothing was recorded.", code: "VALUE_INVALID" }, 400);
  }
}

async function route(u: UiSources, guard: Guard, req: Request, url: URL): Promise<Response> {
  const p = url.pathname;
  if (req.method === "POST") {
    if (p !== "/api/act") return new Response("Not found", { status: 404 });
    if (!guard.sameOrigin(req, url)) return json({ error: "Refused: not a request of this page (origin or CSRF token); nothing was recorded.", code: "TOOL_PERMISSION_DENIED" }, 403);
    return act(u, (await req.json().catch(() => ({}))) as ActBody);
  }
  if (req.method !== "GET") return new Response("Method not allowed", { status: 405 });
  switch (p) {
    case "/": {
      const cookie = guard.tokenCookie(url);
      // The token leaves the address bar once it is a cookie.
      if (cookie !== undefined) return new Response(null, { status: 303, headers: { location: "/", "set-cookie": cookie } });
      return new Response(page(guard.csrf), { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP, "cache-control": "no-store" } });
    }
    case "/app.js":
      return new Response(APP_JS, { headers: { "content-type": "text/javascript; charset=utf-8" } });
    case "/app.css":
      return new Response(APP_CSS, { headers: { "content-type": "text/css; charset=utf-8" } });
    case "/api/runs":
      return json(await allRuns(u));
    case "/api/run": {
      const r = await oneRun(u, url.searchParams.get("id") ?? "");
      return r === undefined ? json({ error: `No run ${url.searchParams.get("id")}.`, code: "RUNTIME_ERROR" }, 404) : json(r);
    }
    case "/api/usage":
      return json(await allUsage(u));
    case "/api/evals":
      return json(await allEvals(u));
    case "/api/threads": {
      const listed = await listThreads(u);
      return listed === undefined ? json({ error: 'No threads store: set "threads" in luma.config.json.', code: "RUNTIME_ERROR" }, 404) : json(listed);
    }
    case "/api/thread": {
      if (u.threads === undefined) return json({ error: 'No threads store: set "threads" in luma.config.json.', code: "RUNTIME_ERROR" }, 404);
      return json(await readThread(u, url.searchParams.get("id") ?? ""));
    }
    default:
      return new Response("Not found", { status: 404 });
  }
}

export interface UiServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts serving; the address is checked by the caller (ui-command.ts): loopback, or a token. */
export function serveUi(u: UiSources, opts: { host: string; port: number; token: string | undefined }): UiServer {
  let server: ReturnType<typeof Bun.serve>;
  const guard = makeGuard({ token: opts.token, host: opts.host, port: () => server.port ?? opts.port });
  try {
    server = Bun.serve({
      hostname: opts.host.replace(/^\[|\]$/g, ""),
      port: opts.port,
      async fetch(req) {
        const url = new URL(req.url);
        const refused = guard.admit(req, url);
        if (refused !== undefined) return refused;
        try {
          return await route(u, guard, req, url);
        } catch (e) {
          return failure(e);
        }
      },
    });
  } catch (e) {
    throw startupError(`luma ui cannot listen on ${opts.host}:${opts.port}: ${(e as Error).message}`, { catalogCode: "E1505" });
  }
  const shownHost = opts.host.includes(":") && !opts.host.startsWith("[") ? `[${opts.host}]` : opts.host;
  return { url: `http://${shownHost}:${server.port}/`, stop: () => server.stop(true) };
}
