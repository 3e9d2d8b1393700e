/**
 * Where a network idempotency store (postgres, redis) connects, and how its failures read.
 *
 * `url` or `url_env` (the name of an environment variable holding the URL) come from the
 * config; credentials never reach a message: the store is shown as its URL without the
 * `user:password@` part, and every message a driver produces is passed through
 * redactSecrets with the password and the whole URL as secrets (a driver may echo
 * either back).
 */
import { LumaError, runtimeError, startupError } from "../../../diagnostics/luma-error";
import { readUrlSetting } from "../../../config/url-setting";
import { redactSecrets } from "../../../diagnostics/redact-secrets";

export interface StoreConnection {
  url: string;
  /** The URL without credentials, query or fragment: `postgres://127.0.0.1:5432/app`. */
  shown: string;
  /** Strings never to print (the password, raw and decoded; the URL). */
  secrets: string[];
}

export const connectionOf = (
  backend: string,
  config: { url?: string; url_env?: string },
  env: Record<string, string | undefined>,
  /** The config key messages name (the journal passes "journal"). */
  setting = "idempotency_store",
): StoreConnection => {
  const { url, shown, secrets, variable } = readUrlSetting(config, env, {
    absent: () => startupError(`${setting} (${backend}) needs "url" or "url_env".`, { catalogCode: "E0607" }),
    envUnset: (v) => startupError(`${setting} (${backend}): environment variable ${v} is not set.`, { catalogCode: "E0607" }),
  });
  if (!URL.canParse(url)) {
    const from = variable !== undefined ? `environment variable ${variable}` : `"url"`;
    throw startupError(`${setting} (${backend}): ${from} does not hold a valid URL.`, { catalogCode: "E0607" });
  }
  return { url, shown, secrets };
};

const causeOf = (e: unknown): string => {
  const err = e as { message?: unknown; code?: unknown };
  const message = typeof err?.message === "string" ? err.message : String(e);
  return typeof err?.code === "string" && !message.includes(err.code) ? `${message} (${err.code})` : message;
};

/** A failure while opening the store: the program does not run. */
export const openFailure = (c: StoreConnection, e: unknown): LumaError =>
  isLuma(e) ? e : startupError(redactSecrets(`Idempotency store ${c.shown}: cannot open it: ${causeOf(e)}`, c.secrets), { catalogCode: "E0608" });

/**
 * A failure during a call (connection lost, server error). Retryable before the handler
 * ran (claim); not after it (complete), since a retry would run the handler again.
 */
export const callFailure = (c: StoreConnection, e: unknown, retryable: boolean): LumaError =>
  isLuma(e) ? e : runtimeError("RUNTIME_ERROR", redactSecrets(`Idempotency store ${c.shown} failed: ${causeOf(e)}`, c.secrets), { retryable });

const isLuma = (e: unknown): e is LumaError => e instanceof LumaError;
