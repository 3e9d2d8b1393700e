/**
 * `luma mcp --http HOST:PORT`: Streamable HTTP at `/mcp`, one session per `initialize`.
 *
 * Every request passes the access checks first (http-access.ts): the bearer token
 * (`LUMA_MCP_TOKEN`) or, with `mcp_serve.oauth` in luma.config.json, a JWT of the issuer
 * (oauth-access.ts, whose grant becomes the session's scopes); then the path and the `Host`
 * (DNS-rebinding protection; an `Origin`, when sent, must be a page of the served address).
 * A session idle for `LUMA_MCP_SESSION_IDLE_MS` is closed (idle-sessions.ts), and each keeps
 * its recent SSE events so a broken stream can be resumed (sse-event-store.ts).
 */
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { startupError } from "../diagnostics/luma-error";
import type { RunLifecycle } from "../runtime/run/run-lifecycle";
import { MAX_MESSAGE_BYTES } from "./message-size-limit";
import { accessRules, carriesToken, unauthorized, type AccessRules } from "./http-access";
import { idleTimeFrom, SessionTable } from "./idle-sessions";
import { RETRY_MS, SessionEventStore } from "./sse-event-store";
import { openOAuth, type OAuthAccess, type OAuthConfig } from "./oauth-access";
import type { Session } from "./session-server";

const parseAddress = (text: string): { hostname: string; port: number } => {
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw startupError(`--http ${text}: expected HOST:PORT or PORT (e.g. 127.0.0.1:8765; port 0 picks a free one).`, { catalogCode: "E0804" });
  return { hostname: m[1]?.replace(/^\[|\]$/g, "") ?? "127.0.0.1", port };
};

const notFoundSession = () => Response.json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }, { status: 404 });

export interface HttpPlan {
  address: string;
  hostname: string;
  port: number;
  access: AccessRules;
  idleMs: number;
  /** `mcp_serve.oauth` of luma.config.json: requests carry the issuer's JWTs instead of LUMA_MCP_TOKEN. */
  oauth?: OAuthConfig;
}

/** Makes a session; `scopes` is its OAuth grant when the server takes OAuth tokens. */
export type SessionMaker = (scopes?: readonly string[]) => Session;

/** Where and for whom to serve, checked before the program opens: a non-loopback address without a token and host list does not start. */
export function httpPlan(address: string, allowedHosts: string | undefined, env: Record<string, string | undefined>, oauth: OAuthConfig | undefined): HttpPlan {
  const { hostname, port } = parseAddress(address);
  if (oauth !== undefined && env.LUMA_MCP_TOKEN !== undefined) {
    throw startupError("luma mcp --http: luma.config.json sets mcp_serve.oauth and LUMA_MCP_TOKEN is set too; one decides who may call: unset LUMA_MCP_TOKEN to take the issuer's tokens, or remove mcp_serve.oauth.", { catalogCode: "E0682" });
  }
  return { address, hostname, port, access: accessRules(address, hostname, allowedHosts, env, oauth !== undefined), idleMs: idleTimeFrom(env), oauth };
}

export async function serveHttp(makeServer: SessionMaker, plan: HttpPlan, log: (line: string) => void, lifecycle: RunLifecycle, scopesSupported: readonly string[]): Promise<void> {
  const { address, hostname, port, access } = plan;
  const sessions = new SessionTable(plan.idleMs);
  let allowedHosts: string[] = [];
  // Read once the port is known (the default audience is the served URL); requests wait for it.
  let oauth: Promise<OAuthAccess> | undefined;
  // Each OAuth session's grant (its initialize's token), kept with its transport.
  const grants = new WeakMap<WebStandardStreamableHTTPServerTransport, readonly string[]>();
  const newSession = async (scopes?: readonly string[]): Promise<WebStandardStreamableHTTPServerTransport> => {
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id: string) => sessions.add(id, transport),
      onsessionclosed: (id) => sessions.delete(id),
      enableDnsRebindingProtection: true,
      allowedHosts,
      // A browser's request carries its page's Origin: only pages served from this address pass
      // (the protocol's MUST; a client outside a browser sends none).
      allowedOrigins: allowedHosts.flatMap((host) => [`http://${host}`, `https://${host}`]),
      maxRequestBodySize: MAX_MESSAGE_BYTES,
      // Resumable streams: event ids, a priming event with `retry`, replay after Last-Event-ID.
      eventStore: new SessionEventStore(),
      retryInterval: RETRY_MS,
    });
    if (scopes !== undefined) grants.set(transport, scopes);
    await makeServer(scopes).connect(transport);
    return transport;
  };
  let http: ReturnType<typeof Bun.serve>;
  try {
    http = Bun.serve({
      hostname,
      port,
      idleTimeout: 0, // an SSE stream may stay open while a tool runs or a user decides
      async fetch(req) {
        const path = new URL(req.url).pathname;
        const o = oauth && (await oauth);
        // The protected-resource metadata is public: it tells a client where to get a token.
        const metadata = o?.metadata(path);
        if (metadata !== undefined) return metadata;
        // The token first: without it nothing is told, not even whether a path or session exists.
        if (access.token !== undefined && !carriesToken(req, access.token)) return unauthorized();
        const granted = o ? await o.verify(req) : undefined;
        if (granted !== undefined && "refused" in granted) return granted.refused;
        if (path !== "/mcp") return new Response("Not found: the MCP endpoint is /mcp\n", { status: 404 });
        // Refused before a session is made for it (the transport refuses it the same way).
        const host = req.headers.get("host")?.toLowerCase();
        if (host === undefined || !allowedHosts.includes(host)) {
          return Response.json({ jsonrpc: "2.0", error: { code: -32000, message: `Invalid Host header: ${host}` }, id: null }, { status: 403 });
        }
        const id = req.headers.get("mcp-session-id");
        const transport = id === null ? await newSession(granted?.scopes) : sessions.get(id);
        // A session serves the grant it was opened with: a later token that grants otherwise must open its own.
        if (transport !== undefined && granted !== undefined && !sameScopes(grants.get(transport), granted.scopes)) return otherGrant();
        if (transport === undefined) return notFoundSession();
        return sessions.handle(transport, req);
      },
    });
  } catch (e) {
    throw startupError(`--http ${address}: cannot listen there (${(e as Error).message}).`, { catalogCode: "E0804" });
  }
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  allowedHosts = access.hosts(http.port ?? port);
  if (plan.oauth !== undefined) {
    oauth = openOAuth(plan.oauth, `http://${shown}:${http.port}/mcp`, scopesSupported);
    try {
      await oauth;
    } catch (e) {
      http.stop(true);
      throw e;
    }
  }
  sessions.start();
  log(`luma mcp: serving http://${shown}:${http.port}/mcp`);
  await lifecycle.untilStopped();
  await sessions.closeAll();
  http.stop(true);
}

const sameScopes = (a: readonly string[] | undefined, b: readonly string[]): boolean =>
  a !== undefined && a.length === b.length && [...a].sort().every((s, i) => s === [...b].sort()[i]);

/** 403 (RFC 6750 insufficient_scope): the token's grant is not the session's. */
const otherGrant = () =>
  Response.json(
    { jsonrpc: "2.0", error: { code: -32001, message: "Forbidden: this token grants other scopes than the session was opened with; start a new session (initialize) with it." }, id: null },
    { status: 403, headers: { "www-authenticate": 'Bearer error="insufficient_scope"' } },
  );

