/**
 * A connection URL given as `url` (the URL itself) or `url_env` (the name of an environment
 * variable holding it) — datasources (spec §12) and network idempotency stores (§10) both
 * take one. Read in one place, so both trim the variable's value the same way, and both know
 * the same secrets: the whole URL and its password (raw and percent-decoded), which no
 * message may print (§14). Checking that only one of the two keys is set is the caller's
 * (the check rules, the config schema).
 */
import { urlPasswordSecrets } from "../diagnostics/redact-secrets";

export interface UrlSource {
  url?: string;
  url_env?: string;
}

export interface UrlSetting {
  /** The URL, trimmed when it came from the environment (a trailing newline is common there). */
  url: string;
  /** Safe to print: scheme, host and path — no credentials, query or fragment. */
  shown: string;
  /** Never to print: the URL itself, its password raw and percent-decoded. */
  secrets: string[];
  /** The environment variable it was read from; undefined for `url`. */
  variable?: string;
}

/** The caller's errors: each names the setting its own way. */
export interface UrlSettingFailures {
  /** Neither `url` nor `url_env` is given. */
  absent: () => Error;
  /** `url_env` names a variable that is unset or blank. */
  envUnset: (variable: string) => Error;
}

export function readUrlSetting(source: UrlSource, env: Record<string, string | undefined>, fail: UrlSettingFailures): UrlSetting {
  let url = source.url;
  let variable: string | undefined;
  if (url === undefined && source.url_env !== undefined) {
    variable = source.url_env;
    url = env[variable]?.trim();
    if (!url) throw fail.envUnset(variable);
  }
  if (url === undefined) throw fail.absent();
  return { url, shown: shownUrl(url), secrets: [url, ...urlPasswordSecrets(url)], variable };
}

/** `postgres://127.0.0.1:5432/app`, `sqlite:data/shop.db`; a URL that does not parse shows as its scheme. */
export function shownUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
    return scheme ? `${scheme}…` : "(not a URL)";
  }
  const path = u.pathname === "/" ? "" : u.pathname;
  return u.host !== "" || url.slice(u.protocol.length).startsWith("//") ? `${u.protocol}//${u.host}${path}` : `${u.protocol}${path}`;
}
