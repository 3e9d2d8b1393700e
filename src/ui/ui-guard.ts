/**
 * Who may use `luma ui`, and which requests may change anything.
 *
 * - Loopback by default. Any other address needs LUMA_UI_TOKEN (E1501 at start-up); with a
 *   token set, every request must carry it — `Authorization: Bearer T`, or the cookie the
 *   page gets from opening `/?token=T` once (HttpOnly, SameSite=Strict) — else 401.
 * - The Host header must name the address served (a loopback name on loopback): a page of
 *   another site whose DNS name is re-pointed at 127.0.0.1 cannot read the API.
 * - A POST (a decision, an answer) must be same-origin (Origin, else Sec-Fetch-Site) and
 *   carry the per-process session token the page was served with (`X-Luma-Csrf`), as JSON:
 *   another site's form or script cannot make one.
 * Tokens are compared in constant time.
 */
import { timingSafeEqual } from "node:crypto";

const COOKIE = "luma_ui_token";
const LOOPBACK = new Set(["127.0.0.1", "::1", "[::1]", "localhost"]);

export const isLoopback = (host: string): boolean => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const cookieOf = (req: Request, name: string): string | undefined => {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
};

export interface Guard {
  /** The per-process token a page must send back with each POST. */
  readonly csrf: string;
  /** A response that refuses the request, or undefined when it may go on. */
  admit(req: Request, url: URL): Response | undefined;
  /** Whether a POST comes from the page itself. */
  sameOrigin(req: Request, url: URL): boolean;
  /** `/?token=T`: the cookie that carries the token from now on. */
  tokenCookie(url: URL): string | undefined;
}

export const makeGuard = (opts: { token: string | undefined; host: string; port: () => number }): Guard => {
  const csrf = crypto.randomUUID() + crypto.randomUUID();
  const hostAllowed = (h: string | null): boolean => {
    if (h === null) return false;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(h);
    if (m === null || Number(m[2] ?? 80) !== opts.port()) return false;
    return isLoopback(opts.host) ? isLoopback(m[1]) : m[1] === opts.host || opts.host === "0.0.0.0" || opts.host === "::";
  };
  const presented = (req: Request, url: URL): string | undefined => {
    const auth = req.headers.get("authorization");
    if (auth?.startsWith("Bearer ")) return auth.slice(7);
    return url.searchParams.get("token") ?? cookieOf(req, COOKIE);
  };
  return {
    csrf,
    admit(req, url) {
      if (!hostAllowed(req.headers.get("host"))) return new Response("Forbidden: unknown Host", { status: 403 });
      if (opts.token === undefined) return undefined;
      const t = presented(req, url);
      if (t === undefined || !same(t, opts.token)) return new Response("Unauthorized: LUMA_UI_TOKEN required", { status: 401, headers: { "www-authenticate": "Bearer" } });
      return undefined;
    },
    sameOrigin(req, url) {
      const origin = req.headers.get("origin");
      const site = req.headers.get("sec-fetch-site");
      const originOk = origin === null ? site === "same-origin" : origin === url.origin;
      const sent = req.headers.get("x-luma-csrf");
      return originOk && sent !== null && same(sent, csrf) && (req.headers.get("content-type") ?? "").startsWith("application/json");
    },
    tokenCookie(url) {
      const t = url.searchParams.get("token");
      return opts.token !== undefined && t !== null && same(t, opts.token) ? `${COOKIE}=${encodeURIComponent(t)}; HttpOnly; SameSite=Strict; Path=/` : undefined;
    },
  };
};
