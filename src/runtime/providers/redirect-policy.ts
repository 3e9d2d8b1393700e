/**
 * What the transport does with a provider's redirect (fetch itself never follows one: the
 * request carries the API key in `authorization`, `api-key`, `x-api-key` or
 * `x-goog-api-key`, and a followed redirect would hand it to the host a `Location` names).
 *
 * - another origin (scheme, host or port): refused, the message naming only the target's
 *   origin — a Location's path and query may carry tokens;
 * - the same origin, 307 or 308: followed, at most MAX_REDIRECTS times (these keep the POST
 *   and its body, so the provider gets the request it was sent);
 * - the same origin, 301/302/303: refused — fetch would turn the POST into a GET, which no
 *   provider API answers usefully; the user fixes `base_url` instead.
 */
import { providerErrors } from "./provider-errors";
import type { ExchangeInfo } from "./transport";

export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const KEEPS_BODY = new Set([307, 308]);

/** The URL to send the request to next, or undefined when `status` is not a redirect to follow. Throws PROVIDER_ERROR when refused. */
export function nextHop(from: string, status: number, location: string | null, hop: number, info: Pick<ExchangeInfo, "decl" | "provider">): string | undefined {
  if (!REDIRECTS.has(status) || location === null) return undefined;
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw providerErrors.redirect(info.decl, info.provider, status, "an unreadable Location", "it was refused");
  }
  const origin = new URL(from).origin;
  if (target.origin !== origin) {
    throw providerErrors.redirect(info.decl, info.provider, status, target.origin, `another origin than ${origin}; it was refused so the API key is not sent there`);
  }
  if (!KEEPS_BODY.has(status)) throw providerErrors.redirect(info.decl, info.provider, status, target.origin, "a redirect that drops the request body; it was refused (check base_url)");
  if (hop >= MAX_REDIRECTS) throw providerErrors.redirect(info.decl, info.provider, status, target.origin, `more than ${MAX_REDIRECTS} redirects; the last was refused`);
  return target.href;
}
