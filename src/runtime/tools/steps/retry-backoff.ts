/**
 * The wait before retry number `retry` (1 for the first retry), spec §9:
 * none 0,0,0… · fixed d,d,d… · exponential d,2d,4d… with d = retry_delay (default 100).
 */
import type { RetryBackoff } from "./tool-options";

export const backoffDelay = (backoff: RetryBackoff, delay: number, retry: number): number =>
  backoff === "none" ? 0 : backoff === "fixed" ? delay : delay * 2 ** (retry - 1);
