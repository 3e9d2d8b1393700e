/**
 * When a provider request is tried again (spec §7): HTTP 408, 429 and 5xx (Anthropic's 529
 * and Gemini's 503 included) and connection failures, up to 3 retries, with capped
 * exponential backoff — 500 ms, 1 s, 2 s… at most 8 s — unless the provider says how long to
 * wait: `retry-after-ms`, then `retry-after` (seconds or an HTTP date), then a hint in the
 * error body (Gemini's RetryInfo). A hint is honoured up to 60 s; an unusable one (negative,
 * zero, non-numeric, a past date) gets the backoff. `x-should-retry` (OpenAI, Anthropic)
 * overrides the status rule either way.
 */
export const MAX_HTTP_RETRIES = 3;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 8_000;
export const RETRY_AFTER_CAP_MS = 60_000;

export function isRetryableStatus(status: number, headers: Record<string, string>): boolean {
  const hint = headers["x-should-retry"];
  if (hint === "true") return true;
  if (hint === "false") return false;
  return status === 408 || status === 429 || status >= 500;
}

/** Backoff before retry number `retry` (0 = the first retry). */
export const backoffMs = (retry: number): number => Math.min(BACKOFF_BASE_MS * 2 ** retry, BACKOFF_CAP_MS);

/** A plain non-negative number (no sign, exponent or hex: `-5`, `1e9`, `0x10` are not waits). */
const PLAIN_NUMBER = /^\d+(\.\d+)?$/;

/**
 * The provider's own wait hint from headers, in ms; undefined when absent or unreadable
 * (negative, non-numeric, a date that does not parse) — the backoff applies then.
 */
export function retryAfterMs(headers: Record<string, string>, nowMs: number = Date.now()): number | undefined {
  const ms = headers["retry-after-ms"]?.trim();
  if (ms !== undefined && PLAIN_NUMBER.test(ms)) return Number(ms);
  const after = headers["retry-after"]?.trim();
  if (after === undefined || after === "") return undefined;
  if (PLAIN_NUMBER.test(after)) return Number(after) * 1000;
  // Only an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`): Date.parse would also read "-5" or "12" as years.
  if (!/[A-Za-z]{3}/.test(after)) return undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : date - nowMs;
}

/**
 * The wait before retry number `retry`: the provider's hint, capped at 60 s, or the backoff
 * when there is no usable hint — none, zero or less (a past date), or not a finite number.
 * So a provider can slow Luma down but never make it hammer: a bad hint is the backoff.
 */
export function retryDelayMs(retry: number, hintMs: number | undefined): number {
  if (hintMs === undefined || Number.isNaN(hintMs) || hintMs <= 0) return backoffMs(retry);
  return Math.min(hintMs, RETRY_AFTER_CAP_MS);
}
