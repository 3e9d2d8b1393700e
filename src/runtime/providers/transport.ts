/**
 * The HTTP layer under the adapters: one exchange, no retry (that is `provider-client.ts`).
 * `fetchTransport` goes over Bun's fetch; `cassette.ts` wraps a transport to record
 * exchanges, or stands in for it to replay them offline.
 *
 * Responses are read under a size cap: a declared `content-length` over the cap is refused
 * before reading; otherwise (chunked or compressed bodies) bytes are counted as they arrive
 * and the read is cancelled once the cap is passed — a misbehaving server or proxy cannot
 * make Luma buffer an unbounded body.
 */
import type { ProviderName } from "./provider-types";

export interface WireRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
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

/** Thrown by a transport when the body passed the cap. */
export class ResponseTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`response larger than ${limit} bytes`);
  }
}

export const KEPT_HEADERS = ["content-type", "retry-after", "retry-after-ms", "x-should-retry", "x-request-id", "request-id"];

/** 8 MiB: far above any JSON answer `ask` expects; below what could hurt the process. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

export interface FetchTransportOptions {
  fetch?: typeof fetch;
  maxResponseBytes?: number;
  timeoutMs?: number;
}

export function fetchTransport(opts: FetchTransportOptions = {}): Transport {
  const doFetch = opts.fetch ?? fetch;
  const max = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return async (req) => {
    const res = await doFetch(req.url, {
      method: "POST",
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const v = res.headers.get(name);
      if (v !== null) headers[name] = v;
    }
    return { status: res.status, headers, text: await readCapped(res, max) };
  };
}

async function readCapped(res: Response, max: number): Promise<string> {
  const declared = res.headers.get("content-length");
  if (declared !== null && Number(declared) > max) {
    await res.body?.cancel();
    throw new ResponseTooLarge(max);
  }
  // A declared length bounds the plain body; a compressed one may inflate, so count it.
  if (declared !== null && res.headers.get("content-encoding") === null) return res.text();
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new ResponseTooLarge(max);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
