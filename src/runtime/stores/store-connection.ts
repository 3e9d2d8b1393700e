/**
 * Where a network idempotency store (postgres, redis) or the PostgreSQL journal connects,
 * and how its failures read. The connection carries its role — the config key messages
 * name, what they call the store, and the catalog codes of its start-up errors — so one
 * mechanism serves both without the journal rewording the stores' errors afterwards.
 *
 * `url` or `url_env` (the name of an environment variable holding the URL) come from the
 * config; credentials never reach a message: the store is shown as its URL without the
 * `user:password@` part, and every message a driver produces is passed through
 * redactSecrets with the password and the whole URL as secrets (a driver may echo
 * either back).
 */
import { LumaError, runtimeError, startupError } from "../../diagnostics/luma-error";
import { readUrlSetting } from "../../config/url-setting";
import { redactSecrets } from "../../diagnostics/redact-secrets";
import type { DiagnosticCode } from "../../diagnostics/catalog";

/** Which configured store a connection belongs to, as its messages and catalog codes say. */
export interface StoreRole {
  /** The config key: `idempotency_store`, `journal`. */
  setting: string;
  /** How messages name the store: `Idempotency store postgres://…`. */
  label: string;
  /** The catalog code of incomplete settings (no url, unset variable, bad URL). */
  settingsCode: DiagnosticCode;
  /** The catalog code of a store that cannot be opened. */
  openCode: DiagnosticCode;
}

export const IDEMPOTENCY_STORE_ROLE: StoreRole = { setting: "idempotency_store", label: "Idempotency store", settingsCode: "E0607", openCode: "E0608" };

export interface StoreConnection {
  role: StoreRole;
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
  role: StoreRole = IDEMPOTENCY_STORE_ROLE,
): StoreConnection => {
  const { setting, settingsCode: catalogCode } = role;
  const { url, shown, secrets, variable } = readUrlSetting(config, env, {
    absent: () => startupError(`${setting} (${backend}) needs "url" or "url_env".`, { catalogCode }),
    envUnset: (v) => startupError(`${setting} (${backend}): environment variable ${v} is not set.`, { catalogCode }),
  });
  if (!URL.canParse(url)) {
    const from = variable !== undefined ? `environment variable ${variable}` : `"url"`;
    throw startupError(`${setting} (${backend}): ${from} does not hold a valid URL.`, { catalogCode });
  }
  return { role, url, shown, secrets };
};

const causeOf = (e: unknown): string => {
  const err = e as { message?: unknown; code?: unknown };
  const message = typeof err?.message === "string" ? err.message : String(e);
  return typeof err?.code === "string" && !message.includes(err.code) ? `${message} (${err.code})` : message;
};

/** A failure while opening the store: the program does not run. */
export const openFailure = (c: StoreConnection, e: unknown): LumaError =>
  isLuma(e) ? e : startupError(redactSecrets(`${c.role.label} ${c.shown}: cannot open it: ${causeOf(e)}`, c.secrets), { catalogCode: c.role.openCode });

/**
 * A failure during a call (connection lost, server error). Retryable before the handler
 * ran (claim); not after it (complete), since a retry would run the handler again.
 */
export const callFailure = (c: StoreConnection, e: unknown, retryable: boolean): LumaError =>
  isLuma(e) ? e : runtimeError("RUNTIME_ERROR", redactSecrets(`${c.role.label} ${c.shown} failed: ${causeOf(e)}`, c.secrets), { retryable });

const isLuma = (e: unknown): e is LumaError => e instanceof LumaError;
