/**
 * Where `luma serve` listens and who may call it (issue #26 §4), decided before the program
 * opens: a loopback address by default (127.0.0.1:8787); any other needs a bearer token in
 * LUMA_SERVE_TOKEN (E0671: whoever reaches the address could otherwise run every served
 * agent with the server's keys), and with one every request must carry it (401 otherwise).
 * Browsers are kept out unless `--cors ORIGIN` names the one origin whose pages may call.
 * The token check and the loopback test are luma mcp's (mcp/http-access.ts): one rule for both.
 */
import { startupError } from "../diagnostics/luma-error";
import { carriesToken, isLoopback } from "../mcp/http-access";

export const DEFAULT_ADDRESS = "127.0.0.1:8787";

export interface ServeAccess {
  hostname: string;
  port: number;
  /** Every request must carry `Authorization: Bearer <token>` when set. */
  token?: string;
  /** The one origin whose pages may call (CORS); none when absent. */
  corsOrigin?: string;
}

function parseAddress(text: string): { hostname: string; port: number } {
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw startupError(`luma serve --http ${text}: expected HOST:PORT or PORT (e.g. 127.0.0.1:8787; port 0 picks a free one).`, { catalogCode: "E0670" });
  return { hostname: m[1]?.replace(/^\[|\]$/g, "") ?? "127.0.0.1", port };
}

const ORIGIN = /^https?:\/\/(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function parseOrigin(text: string): string {
  if (!ORIGIN.test(text)) {
    throw startupError(`luma serve --cors ${text}: expected one origin, a scheme, host and optional port with no path (e.g. https://app.example.com or http://localhost:5173).`, { catalogCode: "E0673" });
  }
  return text.toLowerCase();
}

/** The address, token and CORS origin to serve with; a non-loopback address without a token does not start. */
export function serveAccess(address: string | undefined, cors: string | undefined, env: Record<string, string | undefined>): ServeAccess {
  const shown = address ?? DEFAULT_ADDRESS;
  const { hostname, port } = parseAddress(shown);
  const token = env.LUMA_SERVE_TOKEN;
  if (token !== undefined && (token.trim() === "" || /\s/.test(token))) {
    throw startupError("LUMA_SERVE_TOKEN is set but empty or contains whitespace: set it to the bearer token clients send, or unset it.", { catalogCode: "E0671" });
  }
  if (!isLoopback(hostname) && token === undefined) {
    throw startupError(
      `luma serve --http ${shown}: ${hostname} is not a loopback address, so anyone who can reach it could run every served agent; serving there needs a bearer token in LUMA_SERVE_TOKEN (clients send Authorization: Bearer <token>).`,
      { catalogCode: "E0671" },
    );
  }
  return { hostname, port, token, corsOrigin: cors === undefined ? undefined : parseOrigin(cors) };
}

/** The request may go on: no token is required, or it carries the right one (compared in constant time). */
export const authorized = (req: Request, access: ServeAccess): boolean => access.token === undefined || carriesToken(req, access.token);

/** The CORS headers of an answer: only for the allowed origin's pages. */
export function corsHeaders(req: Request, access: ServeAccess): Record<string, string> {
  const origin = req.headers.get("origin");
  if (access.corsOrigin === undefined || origin?.toLowerCase() !== access.corsOrigin) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-allow-headers": "authorization, content-type",
    "access-control-expose-headers": "luma-run-id",
    "access-control-max-age": "600",
    vary: "Origin",
  };
}

/**
 * A browser page the server does not serve: its request carries an `Origin` (browsers send one
 * with every cross-origin request, and with same-origin POSTs) that `--cors` does not allow.
 * Clients that are not browsers send none.
 */
export function foreignPage(req: Request, access: ServeAccess): boolean {
  const origin = req.headers.get("origin");
  return origin !== null && origin.toLowerCase() !== access.corsOrigin;
}
