/**
 * Every PROVIDER_ERROR in one catalog. `retryable` says whether the `ask` retry loop may make
 * another attempt (transient HTTP statuses and connection failures, once their own HTTP
 * retries are spent); everything else — a bad key, a 400, a refused size, a replay miss —
 * stops the ask at once.
 *
 * None of these messages interpolates a secret; provider error text is passed through
 * `redact` first, because providers echo keys back ("Incorrect API key provided: sk-…") and
 * connection errors may quote a proxy URL with its credentials. Of the base URL, a message
 * names the origin only: its path and query may carry tokens (base-url-secrets.ts).
 */
import { runtimeError, startupError, type LumaError } from "../../diagnostics/luma-error";
import { redactSecrets } from "../../diagnostics/redact-secrets";

const who = (model: string, provider: string) => `Model '${model}' (provider "${provider}")`;

export const providerErrors = {
  missingKey: (model: string, provider: string, variable: string): LumaError =>
    runtimeError("PROVIDER_ERROR", `${who(model, provider)} needs an API key: environment variable ${variable} is not set.`),
  noBaseUrl: (model: string, provider: string): LumaError =>
    runtimeError(
      "PROVIDER_ERROR",
      provider === "azure"
        ? `${who(model, provider)} needs a base_url or the environment variable AZURE_OPENAI_ENDPOINT.`
        : `${who(model, provider)} needs a base_url.`,
    ),
  status: (model: string, provider: string, status: number, detail: string | undefined, retryable: boolean, tries: number): LumaError =>
    runtimeError(
      "PROVIDER_ERROR",
      `${who(model, provider)} request failed with HTTP ${status}${detail ? `: ${detail}` : ""}${tries > 1 ? ` (after ${tries} tries)` : ""}.`,
      { retryable, details: { status } },
    ),
  connection: (model: string, provider: string, origin: string, cause: string, tries: number): LumaError =>
    runtimeError(
      "PROVIDER_ERROR",
      `${who(model, provider)} could not be reached at ${origin}: ${cause}${tries > 1 ? ` (after ${tries} tries)` : ""}.`,
      { retryable: true },
    ),
  /** A `provider: "mcp"` model outside `luma mcp`: there is no MCP client to sample (not retryable). */
  noSamplingClient: (model: string): LumaError =>
    runtimeError(
      "PROVIDER_ERROR",
      `${who(model, "mcp")} asks the MCP client that called the method (sampling/createMessage): it answers only in an agent method served by luma mcp, called by a client.`,
    ),
  /** Not retryable: the URL will not change between tries. */
  unusableUrl: (model: string, provider: string, why: string): LumaError =>
    runtimeError("PROVIDER_ERROR", `${who(model, provider)} was not sent: its base URL ${why}; only http: and https: URLs are used (check base_url).`),
  redirect: (model: string, provider: string, status: number, target: string, why: string): LumaError =>
    runtimeError("PROVIDER_ERROR", `${who(model, provider)} answered HTTP ${status} redirecting to ${target}: ${why}.`, { details: { status } }),
  timeout: (model: string, provider: string, ms: number, tries: number): LumaError =>
    runtimeError(
      "PROVIDER_ERROR",
      `${who(model, provider)} did not answer within its ${ms} ms timeout (model key timeout)${tries > 1 ? ` (after ${tries} tries)` : ""}.`,
      // `timeout_ms` marks a timeout for whoever maps errors to answers (luma serve: 504).
      { retryable: true, details: { timeout_ms: ms } },
    ),
  /** Not retryable: the ceiling bounds the whole ask, its retry loop included. */
  askCeiling: (model: string, provider: string, agent: string, ms: number, last: string | undefined): LumaError =>
    runtimeError(
      "PROVIDER_ERROR",
      `${who(model, provider)} did not give a final answer within the ${ms} ms limit of an ask (agent '${agent}', key ask_timeout)` +
        `${last ? `; the last try: ${last}` : ""}.`,
      { details: { timeout_ms: ms } },
    ),
  tooLarge: (model: string, provider: string, limit: number): LumaError =>
    runtimeError("PROVIDER_ERROR", `${who(model, provider)} sent a response larger than the ${limit}-byte limit; it was refused.`),
  badBody: (model: string, provider: string, why: string): LumaError =>
    runtimeError("PROVIDER_ERROR", `${who(model, provider)} sent a response Luma cannot read: ${why}.`),
  replayMiss: (cassette: string, model: string, provider: string, hash: string): LumaError =>
    runtimeError(
      "PROVIDER_ERROR",
      `The cassette ${cassette} has no recorded answer for this request to model '${model}' (provider "${provider}") ` +
        `(request hash ${hash.slice(0, 12)}); record it again with --record.`,
      { details: { hash } },
    ),
  /** `where`: what named the file and where it was looked for (cassette.ts `cassetteOrigin`). */
  cassetteUnreadable: (cassette: string, why: string, where?: string): LumaError =>
    startupError(`cannot read cassette ${cassette}: ${why}${where ? ` (${where})` : ""}`, { catalogCode: "E0605" }),
  cassetteUnwritable: (cassette: string, why: string): LumaError => startupError(`cannot write cassette ${cassette}: ${why}`, { catalogCode: "E0605" }),
};

/** How provider messages and cassettes mark a removed secret (the §14 canary tests pin it). */
const REDACTED = "[redacted]";

/** Provider text with every URL's `user:password@` and each known secret replaced (src/diagnostics/redact-secrets.ts). */
export const redact = (text: string, secrets: readonly (string | undefined)[]): string => redactSecrets(text, secrets, REDACTED);
