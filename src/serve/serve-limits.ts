/**
 * The time limits of `luma serve`, from the environment (not flags: they tune a deployment,
 * as LUMA_SERVE_TOKEN configures one):
 *
 *   LUMA_SERVE_DRAIN_MS (default 10000)  after SIGTERM, how long requests in flight may finish (E0674)
 *   LUMA_SERVE_READ_MS  (default 10000)  how long a client has to send a request's body, and how
 *                                        long a connection with no request in it stays open (E0675)
 *   LUMA_SERVE_RESUME_MS (default 10000) how long a chat turn whose client went away mid-stream
 *                                        waits for `useChat` to resume it before it is aborted (E0677)
 *
 * The read limit is what keeps slow or idle clients (slowloris, a thousand open sockets) from
 * holding the server: nothing a client does not send within it is waited for.
 */
import { startupError } from "../diagnostics/luma-error";

export interface ServeLimits {
  drainMs: number;
  readMs: number;
  resumeMs: number;
  /** Bun's idle timeout for a connection between requests (whole seconds, 1–255). */
  idleSeconds: number;
}

const DEFAULT_DRAIN_MS = 10_000;
const DEFAULT_READ_MS = 10_000;
const DEFAULT_RESUME_MS = 10_000;
/** Bun.serve's largest idleTimeout. */
const MAX_IDLE_SECONDS = 255;

function wholeMs(name: string, text: string | undefined, fallback: number, min: number, code: "E0674" | "E0675" | "E0677"): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min) throw startupError(`${name} must be a whole number of milliseconds${min > 0 ? ` (at least ${min})` : ""} (got '${text}').`, { catalogCode: code });
  return Number(text);
}

export function serveLimits(env: Record<string, string | undefined>): ServeLimits {
  const readMs = wholeMs("LUMA_SERVE_READ_MS", env.LUMA_SERVE_READ_MS, DEFAULT_READ_MS, 1, "E0675");
  return {
    drainMs: wholeMs("LUMA_SERVE_DRAIN_MS", env.LUMA_SERVE_DRAIN_MS, DEFAULT_DRAIN_MS, 0, "E0674"),
    readMs,
    resumeMs: wholeMs("LUMA_SERVE_RESUME_MS", env.LUMA_SERVE_RESUME_MS, DEFAULT_RESUME_MS, 0, "E0677"),
    idleSeconds: Math.min(MAX_IDLE_SECONDS, Math.max(1, Math.ceil(readMs / 1000))),
  };
}
