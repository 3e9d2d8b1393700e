/**
 * http_get and http_send of luma:std (docs/language/std-tools.md). A request goes only to a
 * host `std.http_hosts` lists — `"host"` (any port) or `"host:port"`, compared exactly —
 * and redirects are not followed: a 3xx comes back as it is (its `location` among the
 * headers), so a listed host cannot send the call anywhere else. The body read is bounded
 * (`STD_MAX_BYTES`, an error past it, never a cut text).
 *
 * Secrets never travel in the input (which the trace and journal record): a header that
 * looks like one (Authorization, Cookie, *token*, *key*, *secret*…) written in `headers` is
 * refused; the config's `std.http_headers_env` adds such headers per host from environment
 * variables, read at each call, named (never shown) when unset. `set-cookie` is not returned.
 */
import { LumaToolError, type ToolHandler } from "../../../luma-module";
import { BodyTooLarge, readCappedBody } from "../../base/read-capped-body";
import { refused, STD_MAX_BYTES, type StdSettings } from "./std-settings";

const HOSTS_KEY = "std.http_hosts";
const HEADERS_KEY = "std.http_headers_env";

/** Header names that carry credentials: given only through std.http_headers_env. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie)$|token|secret|password|api[-_]?key|auth/i;

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

const httpError = (tool: string, message: string, reason: string, retryable: boolean): LumaToolError =>
  new LumaToolError({ code: "STD_HTTP_ERROR", message: `Tool '${tool}': ${message}.`, retryable, details: { reason } });

/** The URL, parsed and judged against the allowed hosts; the listed entry it matched. */
function allowedUrl(tool: string, settings: StdSettings, raw: string): { url: URL; entry: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw httpError(tool, `${JSON.stringify(raw)} is not a URL`, "bad_url", false);
  }
  if (!Object.hasOwn(DEFAULT_PORTS, url.protocol)) throw refused(tool, `${url.protocol} URLs (only http: and https:)`, HOSTS_KEY);
  if (url.username !== "" || url.password !== "") throw refused(tool, "a URL with credentials in it (use std.http_headers_env)", HEADERS_KEY);
  const host = url.hostname.toLowerCase();
  const port = url.port === "" ? DEFAULT_PORTS[url.protocol]! : url.port;
  const entry = settings.httpHosts.find((h) => h === host || h === `${host}:${port}`);
  if (entry === undefined) throw refused(tool, `the host ${host}:${port}${settings.httpHosts.length === 0 ? " (no host is listed)" : ""}`, HOSTS_KEY);
  return { url, entry };
}

/** The request's headers: the input's (no secrets), then the host's configured ones from the environment. */
function requestHeaders(tool: string, settings: StdSettings, entry: string, given: unknown): Headers {
  const headers = new Headers();
  if (given !== undefined && given !== null) {
    if (typeof given !== "object" || Array.isArray(given)) throw new LumaToolError({ code: "TOOL_INPUT_INVALID", message: `Tool '${tool}': headers must be an object of header name to text.` });
    for (const [name, value] of Object.entries(given)) {
      if (typeof value !== "string") throw new LumaToolError({ code: "TOOL_INPUT_INVALID", message: `Tool '${tool}': header '${name}' must be text.` });
      if (SECRET_HEADER.test(name)) throw refused(tool, `the header '${name}' in its input (a secret header comes from the environment)`, HEADERS_KEY);
      try {
        headers.set(name, value);
      } catch {
        throw new LumaToolError({ code: "TOOL_INPUT_INVALID", message: `Tool '${tool}': '${name}' is not a valid header.` });
      }
    }
  }
  const configured = Object.entries(settings.headersEnv).find(([h]) => h.toLowerCase() === entry)?.[1] ?? {};
  for (const [name, variable] of Object.entries(configured)) {
    const value = settings.env[variable];
    if (!value) throw refused(tool, `the call: missing credential ${variable} for header '${name}'`, HEADERS_KEY);
    headers.set(name, value);
  }
  return headers;
}

/** The body as text, read up to the bound; a longer one fails (and the rest is not read). */
async function boundedText(tool: string, response: Response): Promise<string> {
  try {
    return await readCappedBody(response, STD_MAX_BYTES);
  } catch (e) {
    if (!(e instanceof BodyTooLarge)) throw e;
    const size = e.declared === undefined ? `more than the ${STD_MAX_BYTES} bytes it reads` : `${e.declared} bytes, more than the ${STD_MAX_BYTES} it reads`;
    throw httpError(tool, `the response body is ${size}`, "too_large", false);
  }
}

interface HttpInput {
  method?: string;
  url: string;
  headers?: unknown;
  body?: string;
  request_id?: string;
}

async function send(tool: string, settings: StdSettings, input: HttpInput, signal: AbortSignal | undefined) {
  const { url, entry } = allowedUrl(tool, settings, input.url);
  const headers = requestHeaders(tool, settings, entry, input.headers);
  if (input.request_id !== undefined && input.request_id !== null) headers.set("Idempotency-Key", input.request_id);
  let response: Response;
  try {
    response = await fetch(url, { method: input.method ?? "GET", headers, body: input.body ?? undefined, redirect: "manual", signal });
  } catch (e) {
    // The pipeline's timeout (or the run's stop) aborted it: that is its error, not this one.
    if (signal?.aborted) throw e;
    throw httpError(tool, `${input.method ?? "GET"} ${url.origin} failed: ${(e as Error).message}`, "network", true);
  }
  const text = await boundedText(tool, response);
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value;
  });
  return { status: response.status, headers: out, text };
}

export const httpGetTool = (settings: StdSettings): ToolHandler => (input: HttpInput, signal?: AbortSignal) =>
  send("http_get", settings, { url: input.url, headers: input.headers }, signal);

export const httpSendTool = (settings: StdSettings): ToolHandler => (input: HttpInput, signal?: AbortSignal) =>
  send("http_send", settings, input, signal);
