/**
 * Credentials never reach a message (spec §14): a database URL's `user:password@` part is
 * replaced wherever a URL appears, and every secret a bridge knows (its password, a whole
 * URL read from `url_env`) is blanked out of any text — a driver may echo either back.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi;

export const REDACTED = "***";

export function redactCredentials(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(URL_USERINFO, `$1${REDACTED}@`);
  // Longest first, so a URL is blanked whole before its password is looked for.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 3) out = out.split(secret).join(REDACTED);
  }
  return out;
}
