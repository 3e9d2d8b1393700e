/**
 * OAuth for `luma mcp --http` (MCP authorization, 2025-06-18 on): the server is an OAuth
 * protected resource. `luma.config.json` names the authorization server that issues its
 * tokens — `"mcp_serve": { "oauth": { "issuer": "https://auth.example.com", "audience": "…" } }` —
 * and the server:
 *
 * - serves its protected-resource metadata (RFC 9728) at
 *   `/.well-known/oauth-protected-resource/mcp` (and without the path): the resource, the
 *   issuer as its authorization server, the scopes its tools use;
 * - answers a request without a valid token `401` with a `Bearer` challenge that points there
 *   (`resource_metadata="…"`, and `error="invalid_token"` when a token was sent);
 * - accepts only JWTs signed by a key of the issuer's JWKS (read from the issuer's metadata,
 *   RFC 8414, at start-up), with that `iss`, the audience (default: the served URL,
 *   `http://HOST:PORT/mcp`) and an `exp` not past (jose's `jwtVerify`).
 *
 * The token's scopes (`scope`, space-separated, or `scp`) become the served agent's
 * `tool_scopes` for the session it opens: a tool whose `scope` is not granted is neither
 * listed nor callable, and a method's calls of it are refused (session-server.ts).
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { startupError } from "../diagnostics/luma-error";
import type { McpServeConfig } from "../config/config-types";

export type OAuthConfig = NonNullable<McpServeConfig["oauth"]>;

export interface OAuthAccess {
  /** The response for a metadata path, else undefined. */
  metadata(path: string): Response | undefined;
  /** The token's scopes when the request carries a valid one; else the 401 to answer. */
  verify(req: Request): Promise<{ scopes: readonly string[] } | { refused: Response }>;
}

const METADATA_PATH = "/.well-known/oauth-protected-resource";

/** RFC 8414 §3: the well-known path goes between the issuer's host and its path. */
const metadataUrls = (issuer: string): string[] => {
  const u = new URL(issuer);
  const path = u.pathname === "/" ? "" : u.pathname.replace(/\/$/, "");
  return [`${u.origin}/.well-known/oauth-authorization-server${path}`, `${u.origin}/.well-known/openid-configuration${path}`];
};

async function jwksUriOf(issuer: string): Promise<string> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) {
        problems.push(`${url}: HTTP ${res.status}`);
        continue;
      }
      const meta = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (meta.issuer !== issuer) throw new Error(`${url} names the issuer ${JSON.stringify(meta.issuer)}, not ${JSON.stringify(issuer)}`);
      if (typeof meta.jwks_uri !== "string") throw new Error(`${url} has no jwks_uri`);
      return meta.jwks_uri;
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  throw startupError(`mcp_serve.oauth.issuer ${issuer}: cannot read the issuer's metadata for its signing keys (${problems.join("; ")}).`, { catalogCode: "E0681" });
}

const scopesOf = (payload: JWTPayload): string[] => {
  if (typeof payload.scope === "string") return payload.scope.split(/\s+/).filter((s) => s !== "");
  return Array.isArray(payload.scp) ? payload.scp.filter((s): s is string => typeof s === "string") : [];
};

/** Reads the issuer's metadata (start-up: an issuer that cannot be read stops the server, E0681). */
export async function openOAuth(config: OAuthConfig, resource: string, scopesSupported: readonly string[]): Promise<OAuthAccess> {
  const keys = createRemoteJWKSet(new URL(await jwksUriOf(config.issuer)));
  const audience = config.audience ?? resource;
  const metadataUrl = `${new URL(resource).origin}${METADATA_PATH}${new URL(resource).pathname}`;
  const body = { resource, authorization_servers: [config.issuer], bearer_methods_supported: ["header"], ...(scopesSupported.length > 0 ? { scopes_supported: scopesSupported } : {}) };
  const challenge = (error?: string) => {
    const params = [`resource_metadata="${metadataUrl}"`, ...(error === undefined ? [] : [`error="invalid_token"`, `error_description="${error.replace(/["\\]/g, "'")}"`])];
    return Response.json(
      { jsonrpc: "2.0", error: { code: -32001, message: error === undefined ? "Unauthorized: send a bearer token from the authorization server" : `Unauthorized: ${error}` }, id: null },
      { status: 401, headers: { "www-authenticate": `Bearer ${params.join(", ")}` } },
    );
  };
  return {
    metadata: (path) => (path === METADATA_PATH || path === `${METADATA_PATH}${new URL(resource).pathname}` ? Response.json(body) : undefined),
    async verify(req) {
      const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.get("authorization") ?? "");
      if (m === null) return { refused: challenge() };
      try {
        const { payload } = await jwtVerify(m[1], keys, { issuer: config.issuer, audience });
        return { scopes: scopesOf(payload) };
      } catch (e) {
        // jose's messages name the claim that failed ("unexpected \"aud\" claim value"), never the token.
        return { refused: challenge(`the token was not accepted: ${(e as Error).message}`) };
      }
    },
  };
}
