/**
 * Secrets never reach a message, a trace or a cassette (spec §14). One redaction for every
 * place that prints text a driver, a provider or a proxy may have produced:
 *
 * 1. the `user:password@` part of every URL in the text is replaced — whoever wrote the
 *    URL, its credentials are not ours to print;
 * 2. every known secret value (an API key, a database password raw and percent-decoded, a
 *    whole URL read from the environment) is blanked wherever it appears, longest first, so
 *    a URL is blanked whole before its password is looked for.
 *
 * The replacement text is the caller's: datasource and store messages say `***`, provider
 * messages say `[redacted]` (both are pinned by tests and documented output).
 */

/** The mark datasource and store messages use. */
export const REDACTED = "***";

/**
 * Shorter values are not blanked: replacing every `a` or `12` in a message would mangle it
 * and, by the holes it leaves, tell more about the secret than it hides.
 */
export const MIN_SECRET_LENGTH = 3;

/**
 * `scheme://userinfo@`: the userinfo runs to the last `@` before the authority ends (`/`,
 * `?`, `#`, whitespace or a quote), as a URL parser reads it — `p@ss` stays inside.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>]*@/gi;

/** `text` with URL credentials and every known secret replaced by `mark`. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = [], mark: string = REDACTED): string {
  let out = text.replace(URL_USERINFO, `$1${mark}@`);
  const known = secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH);
  for (const secret of known.sort((a, b) => b.length - a.length)) {
    if (out.includes(secret)) out = out.split(secret).join(mark);
  }
  return out;
}

const USERINFO_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:([^/?#]*)@/i;

const decoded = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined; // a malformed escape (`%zz`): the raw spelling is all there is
  }
};

/**
 * The password of a URL's userinfo, raw and percent-decoded (a driver may echo either);
 * empty when it has none. The raw password is always kept, even when it does not decode
 * and even when the URL does not parse.
 */
export function urlPasswordSecrets(url: string): string[] {
  let raw: string | undefined;
  try {
    raw = new URL(url).password;
  } catch {
    raw = USERINFO_PASSWORD.exec(url)?.[1];
  }
  if (!raw) return [];
  const plain = decoded(raw);
  return plain === undefined || plain === raw ? [raw] : [raw, plain];
}
