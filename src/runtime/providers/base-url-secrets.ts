/**
 * What of a model's base URL a message may show: its origin (scheme, host, port), never its
 * path or query. Gateways and proxies put tokens there (`https://gw.example/v1/<account>/…`,
 * `…/v1?key=…`), and a provider, a proxy or fetch itself may quote the URL back in the text
 * Luma passes on (a 404 body's "Cannot POST /…", a file error). Luma's own messages name the
 * origin only (`originOf`); the text it passes on is redacted with `baseUrlSecrets`, which
 * lists the parts of the path and query that could be a token — in errors, the ask ceiling's
 * last cause, and a recorded cassette alike (they all redact with the exchange's secrets).
 *
 * A part counts as a possible token when it has at least TOKEN_MIN_LENGTH characters: the
 * short segments of a base URL are the API's own words (`v1`, `openai`, `api`), and
 * blanking those would mangle every message that names a route.
 */

export const TOKEN_MIN_LENGTH = 8;

/** `scheme://authority` and what follows it, for a URL the URL parser refuses. */
const SCHEME_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

const decoded = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return undefined; // a malformed escape: the raw spelling is all there is
  }
};

/** The origin of `url` for a message, or a phrase saying it has none that can be named. */
export function originOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? "an unusable base URL" : origin;
  } catch {
    return "an unreadable base URL";
  }
}

/**
 * The path segments and query values of `baseUrl` that could be tokens, raw and decoded;
 * for a URL that does not parse, everything after its authority (or all of it) as well.
 */
export function baseUrlSecrets(baseUrl: string): string[] {
  let path: string;
  let query: string;
  const parts: string[] = [];
  try {
    const u = new URL(baseUrl);
    path = u.pathname;
    query = u.search.slice(1) + (u.hash ? `&${u.hash.slice(1)}` : "");
  } catch {
    const authority = SCHEME_AUTHORITY.exec(baseUrl)?.[0];
    const tail = authority === undefined ? baseUrl : baseUrl.slice(authority.length);
    parts.push(tail);
    const q = tail.search(/[?#]/);
    path = q === -1 ? tail : tail.slice(0, q);
    query = q === -1 ? "" : tail.slice(q + 1).replace("#", "&");
  }
  parts.push(...path.split("/"));
  // A query value is the token (`?key=…`), the name is the API's word; a bare `?…` is all value.
  for (const pair of query.split(/[&;]/)) parts.push(pair.includes("=") ? pair.slice(pair.indexOf("=") + 1) : pair);
  const out = new Set<string>();
  for (const raw of parts) {
    for (const s of [raw, decoded(raw)]) if (s !== undefined && s.length >= TOKEN_MIN_LENGTH) out.add(s);
  }
  return [...out];
}
