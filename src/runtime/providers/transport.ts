/**
 * The HTTP layer under the adapters: one exchange, no retry (that is `provider-client.ts`).
 * `fetchTransport` goes over Bun's fetch; `cassette.ts` wraps a transport to record
 * exchanges, or stands in for it to replay them offline.
 *
 * Responses are read under a size cap: a declared `content-length` over the cap is refused
 * before reading; otherwise (chunked or compressed bodies) bytes are counted as they arrive
 * and the read is cancelled once the cap is passed — a misbehaving server or proxy cannot
 * make Luma buffer an unbounded body.
 *
 * Each exchange has one deadline (`WireRequest.timeoutMs`) over connect, headers and body
 * alike: a server that never answers, or sends headers and then trickles the body, is cut
 * when it passes (`RequestTimedOut`).
 *
 * Redirects are never followed by fetch: the request carries the API key in a header, and
 * fetch would send it to whatever host a `Location` names. A redirect to another origin is
 * refused (`redirect-policy.ts`); a same-origin 307/308 (which keep the POST and its body)
 * is followed a bounded number of times.
 *
 * Only http: and https: URLs reach fetch: Bun's fetch would also read a `file:` URL (a local
 * file as the "answer", quoted back in the parse error) and sign an `s3:` one with the
 * environment's AWS credentials.
 */
import type { ProviderName } from "./provider-types";
import { nextHop } from "./redirect-policy";
import { readCappedBody } from "../base/read-capped-body";
import { providerErrors } from "./provider-errors";

export interface WireRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole exchange's deadline, ms from its start (the model's `timeout`, or less near the ask's ceiling). */
  timeoutMs?: number;
  /**
   * A streamed request's reader: a successful (2xx) body is handed here piece by piece as
   * it arrives, besides being returned whole. A transport that cannot stream (a replay) may
   * leave it uncalled; the client then reads the whole text at the end.
   */
  onChunk?: (text: string) => void;
  /**
   * The caller's cancellation (a failed `parallel` sibling, an MCP client's cancel): aborts
   * the exchange in flight, and the transport rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

export interface WireResponse {
  status: number;
  /** Lower-cased names; only those in KEPT_HEADERS. */
  headers: Record<string, string>;
  text: string;
}

/** What a transport may want to know about an exchange besides its bytes. */
export interface ExchangeInfo {
  provider: ProviderName;
  /** The provider's model id (Azure: the deployment). */
  model: string;
  /** The model declaration name, for messages. */
  decl: string;
  /** The request body as an object (the cassette hashes it). */
  body: Record<string, unknown>;
  secretHeaders: readonly string[];
  /** Secret values (the API key, a proxy URL's password) to scrub from anything stored. */
  secrets: readonly string[];
}

export type Transport = (req: WireRequest, info: ExchangeInfo) => Promise<WireResponse>;


/** Thrown by a transport when the exchange passed its deadline. */
export class RequestTimedOut extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
  }
}

export const KEPT_HEADERS = ["content-type", "retry-after", "retry-after-ms", "x-should-retry", "x-request-id", "request-id"];

/** 8 MiB: far above any JSON answer `ask` expects; below what could hurt the process. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** A model's `timeout` when it sets none: 5 min per request, connect to last byte. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface FetchTransportOptions {
  fetch?: typeof fetch;
  maxResponseBytes?: number;
}

export function fetchTransport(opts: FetchTransportOptions = {}): Transport {
  const doFetch = opts.fetch ?? fetch;
  const max = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (req, info) => {
    // Sampling goes to an MCP client (src/mcp/sampling-transport.ts wraps this transport there).
    if (info.provider === "mcp") throw providerErrors.noSamplingClient(info.decl);
    const refused = unusableUrl(req.url);
    if (refused !== undefined) throw providerErrors.unusableUrl(info.decl, info.provider, refused);
    const timeoutMs = req.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const controller = new AbortController();
    // Timers past 2^31-1 ms fire at once: a huge `timeout` means "about 24 days", not "now".
    const timer = setTimeout(() => controller.abort(new RequestTimedOut(timeoutMs)), Math.min(timeoutMs, MAX_TIMER_MS));
    const cancel = () => controller.abort(req.signal?.reason);
    if (req.signal?.aborted) cancel();
    else req.signal?.addEventListener("abort", cancel, { once: true });
    try {
      let url = req.url;
      for (let hop = 0; ; hop++) {
        const res = await doFetch(url, { method: "POST", headers: req.headers, body: req.body, signal: controller.signal, redirect: "manual" });
        // Headers are read only for a redirect until the body is read (readCappedBody says why).
        const next = res.status >= 300 && res.status < 400 ? nextHop(url, res.status, res.headers.get("location"), hop, info) : undefined;
        if (next !== undefined) {
          await res.body?.cancel();
          url = next;
          continue;
        }
        const onChunk = res.status >= 200 && res.status < 300 ? req.onChunk : undefined;
        const text = await readCappedBody(res, max, onChunk);
        // The kept headers are copied once the body is read: nothing needs them sooner, and a
        // streamed answer's first text should not wait on them (time to first byte).
        const headers: Record<string, string> = {};
        for (const name of KEPT_HEADERS) {
          const v = res.headers.get(name);
          if (v !== null) headers[name] = v;
        }
        return { status: res.status, headers, text };
      }
    } catch (e) {
      // fetch and the body reader reject with the abort reason, or with their own AbortError.
      if (req.signal?.aborted) throw req.signal.reason;
      throw controller.signal.aborted ? new RequestTimedOut(timeoutMs) : e;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener("abort", cancel);
    }
  };
}

/** Why `url` is not sent (a phrase after "its base URL"), or undefined. Names the scheme only, never the path. */
function unusableUrl(url: string): string | undefined {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return "is not a URL";
  }
  if (protocol === "http:" || protocol === "https:") return undefined;
  return `has the scheme ${protocol}`;
}
