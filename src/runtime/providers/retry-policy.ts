/**
 * When a provider request is tried again (spec §7): HTTP 408, 429 and 5xx (Anthropic's 529
 * and Gemini's 503 included) and connection failures, up to 3 retries, with capped
 * exponential backoff — 500 ms, 1 s, 2 s… at most 8 s — unless the provider says how long to
 * wait: `retry-after-ms`, then `retry-after` (seconds or an HTTP date), then a hint in the
 * error body (Gemini's RetryInfo). A hint is honoured up to 60 s. `x-should-retry` (OpenAI,
 * Anthropic) overrides the status rule either way.
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

/** The provider's own wait hint from headers, in ms; undefined when absent or unreadable. */
export function retryAfterMs(headers: Record<string, string>, nowMs: number = Date.now()): number | undefined {
  const ms = headers["retry-after-ms"];
  if (ms !== undefined && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers["retry-after"];
  if (after === undefined || after.trim() === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Number(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** The wait before retry number `retry`: the provider's hint (capped) or the backoff. */
export function retryDelayMs(retry: number, hintMs: number | undefined): number {
  return hintMs === undefined ? backoffMs(retry) : Math.min(hintMs, RETRY_AFTER_CAP_MS);
}
