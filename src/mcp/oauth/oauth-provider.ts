/**
 * Luma's OAuth 2.1 client for one MCP server reached over HTTP: the SDK's
 * `OAuthClientProvider` (`@modelcontextprotocol/sdk/client/auth.js` does the protocol —
 * protected-resource and authorization-server discovery, dynamic client registration, PKCE,
 * the token and refresh requests); this file holds what is Luma's:
 *
 * - **Which grant.** Without `mcp_servers.<name>.oauth`, or with `grant_type:
 *   "authorization_code"`, a 401 starts the authorization code flow with PKCE: the
 *   redirect is a loopback listener (loopback-redirect.ts), and the URL to open is handed
 *   to `notice` (printed on the terminal). A configured `client_id` is a pre-registered
 *   client (no registration); without one the client registers itself. `grant_type:
 *   "client_credentials"` is a machine client: no person, no redirect; it authenticates with
 *   the secret in `client_secret_env` (client_secret_basic or _post, as the server offers)
 *   or signs a JWT with the key in `private_key_env` (`private_key_jwt`,
 *   `signing_algorithm`).
 * - **Where the state goes.** Tokens and a registered client go to the token store
 *   (token-store.ts: sealed with the store key, else for the run only). A configured secret or
 *   key stays in its environment variable and is never stored.
 * - **Secrets stay out of text.** `secrets()` lists the configured secret and the current
 *   tokens, so whatever a server echoes back is blanked from Luma's messages.
 */
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { createPrivateKeyJwtAuth } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthConfig } from "../../config/config-types";
import { startupError } from "../../diagnostics/luma-error";
import { startLoopbackRedirect, type LoopbackRedirect } from "./loopback-redirect";
import type { TokenStore } from "./token-store";

const randomState = () => Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");

export interface LumaOAuthOptions {
  server: string;
  config: McpOAuthConfig | undefined;
  store: TokenStore;
  env: Record<string, string | undefined>;
  /** Prints one line for the person (the URL to open). */
  notice: (line: string) => void;
}

/** The configured secret or key, read from its variable: a missing one is a start-up error naming the key. */
function configuredSecret(server: string, config: McpOAuthConfig | undefined, env: Record<string, string | undefined>) {
  const read = (key: "client_secret_env" | "private_key_env") => {
    const variable = config?.[key];
    if (variable === undefined) return undefined;
    const value = env[variable];
    if (value === undefined || value === "") {
      throw startupError(`MCP server '${server}': mcp_servers.${server}.oauth.${key} names the environment variable ${variable}, which is not set.`, { catalogCode: "E0690" });
    }
    return value;
  };
  return { secret: read("client_secret_env"), privateKey: read("private_key_env") };
}

export class LumaOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private sentState: string | undefined;
  private pending: Promise<string> | undefined;
  private loopback: LoopbackRedirect | undefined;
  /** A pre-registered client's binding to the authorization server it was first used with (memory only). */
  private boundIssuer: string | undefined;
  private readonly secret: string | undefined;
  readonly addClientAuthentication: OAuthClientProvider["addClientAuthentication"];

  constructor(private readonly o: LumaOAuthOptions) {
    const { secret, privateKey } = configuredSecret(o.server, o.config, o.env);
    this.secret = secret;
    if (privateKey !== undefined) {
      const id = o.config!.client_id!;
      this.addClientAuthentication = createPrivateKeyJwtAuth({ issuer: id, subject: id, privateKey, alg: o.config!.signing_algorithm! });
    }
  }

  /** A Client ID Metadata Document's URL: the client_id where the authorization server supports them (else it registers). */
  get clientMetadataUrl(): string | undefined {
    return this.o.config?.client_metadata_url;
  }

  private get interactive(): boolean {
    return (this.o.config?.grant_type ?? "authorization_code") === "authorization_code";
  }

  private get scope(): string | undefined {
    const scopes = this.o.config?.scopes;
    return scopes === undefined || scopes.length === 0 ? undefined : scopes.join(" ");
  }

  get redirectUrl(): string | undefined {
    if (!this.interactive) return undefined;
    this.loopback ??= startLoopbackRedirect();
    return this.loopback.url;
  }

  get clientMetadata(): OAuthClientMetadata {
    const method = this.addClientAuthentication !== undefined ? "private_key_jwt" : this.secret !== undefined ? "client_secret_basic" : "none";
    const grants = this.interactive ? ["authorization_code", "refresh_token"] : ["client_credentials"];
    const redirects = this.interactive ? [this.redirectUrl!] : [];
    return { client_name: "Luma", redirect_uris: redirects, grant_types: grants, response_types: this.interactive ? ["code"] : [], token_endpoint_auth_method: method, scope: this.scope };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const id = this.o.config?.client_id;
    if (id === undefined) return this.o.store.read().client as OAuthClientInformationMixed | undefined;
    return { client_id: id, ...(this.secret !== undefined ? { client_secret: this.secret } : {}), ...(this.boundIssuer ? { issuer: this.boundIssuer } : {}) };
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    if (this.o.config?.client_id !== undefined) {
      this.boundIssuer = (info as { issuer?: string }).issuer;
      return;
    }
    this.o.store.write({ ...this.o.store.read(), client: info as Record<string, unknown> });
  }

  tokens(): OAuthTokens | undefined {
    return this.o.store.read().tokens as OAuthTokens | undefined;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.o.store.write({ ...this.o.store.read(), tokens: tokens as unknown as Record<string, unknown> });
  }

  state(): string {
    this.sentState = randomState();
    return this.sentState;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.loopback === undefined || this.sentState === undefined) throw new Error("an authorization was asked for without a redirect");
    this.pending = this.loopback.code(this.sentState);
    this.pending.catch(() => {});
    this.o.notice(`MCP server '${this.o.server}' needs authorization. Open this URL in a browser to continue:`);
    this.o.notice(`  ${authorizationUrl.href}`);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("no PKCE code verifier was saved");
    return this.verifier;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const record = this.o.store.read();
    if (scope === "all") this.o.store.write({});
    else if (scope === "client") this.o.store.write({ ...record, client: undefined });
    else if (scope === "tokens") this.o.store.write({ ...record, tokens: undefined });
    else if (scope === "verifier") this.verifier = undefined;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.interactive) return undefined;
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    const wanted = scope ?? this.scope;
    if (wanted) params.set("scope", wanted);
    return params;
  }

  /** The code the person's browser brings back after the last redirect; undefined when none was asked for. */
  takeCode(): Promise<string> | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  /** Texts that must never reach a message: the configured secret, the current tokens. */
  secrets(): string[] {
    const t = this.o.store.read().tokens as { access_token?: string; refresh_token?: string } | undefined;
    return [this.secret, t?.access_token, t?.refresh_token].filter((s): s is string => typeof s === "string" && s !== "");
  }

  close(): void {
    this.loopback?.stop();
  }
}

/** Whether an error came from the authorization (a 401 never answered with a token, an OAuth error, a wait nobody finished). */
export function isAuthorizationFailure(e: unknown): boolean {
  // The SDK's OAuth errors (invalid_client, invalid_grant…) by class: a bundled build renames them.
  if (e instanceof UnauthorizedError || e instanceof OAuthError) return true;
  const err = e as { code?: unknown; message?: unknown };
  if ((err?.code === 401 || err?.code === 403) && typeof err.message === "string") return true;
  return typeof err?.message === "string" && /authoriz|OAuth|token endpoint|registration/i.test(err.message);
}
