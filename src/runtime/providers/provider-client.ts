/**
 * One provider turn: build the adapter's request, send it through the transport with the
 * retry policy, read the answer. Each HTTP try is one `provider.request` trace event (model,
 * provider, attempt, status, tokens in/out/cached/cache-write/reasoning when reported, duration,
 * the server, the request's temperature / max tokens / output type, and the answer's id, model
 * and finish reason) — built from names and numbers only: the API key lives in a header no
 * event, error or cassette ever sees, and the credentials of a proxy URL are scrubbed like the
 * key (so is anything of them an answer's id or model would echo).
 *
 * Two deadlines bound a turn: each try gets the model's `timeout` (connect to last byte, in
 * the transport), and the ask's ceiling (`meta.ceiling`, agent key `ask_timeout`) cuts a try
 * short, or a retry wait, that would end past it. A try's timeout is retried like a lost
 * connection; the ceiling is final.
 */
import { isLumaError } from "../../diagnostics/luma-error";
import type { ContentThunk } from "../telemetry/telemetry";
import { urlPasswordSecrets } from "../../diagnostics/redact-secrets";
import { baseUrlSecrets, originOf } from "./base-url-secrets";
import { providerErrors, redact } from "./provider-errors";
import { assertSendable } from "./resolve-model";
import type { ProviderAdapter, ResolvedModel, TurnRequest, TurnResult } from "./provider-types";
import { isRetryableStatus, MAX_HTTP_RETRIES, retryAfterMs, retryDelayMs } from "./retry-policy";
import { tryParseJson } from "./safe-json";
import { DEFAULT_REQUEST_TIMEOUT_MS, RequestTimedOut, type Transport, type WireResponse } from "./transport";
import { BodyTooLarge } from "../base/read-capped-body";
import { mergeProviderOptions } from "./model-options-wire";
import { openStreamReader } from "./stream-reader";

export interface ProviderClient {
  transport: Transport;
  /** Injectable so tests never wait; replays do not wait at all. */
  sleep: (ms: number) => Promise<void>;
  /** Trace events; the thunk beside one is the exchange's content, read only by an opted-in span exporter. */
  trace?: (event: object, content?: ContentThunk) => void;
  /** Monotonic ms, for durations. */
  now: () => number;
  maxRetries?: number;
}

export interface ProviderRequestEvent {
  event: "provider.request";
  agent: string | null;
  model: string;
  provider: string;
  model_name: string;
  turn: number;
  attempt: number;
  status: number | null;
  duration_ms: number;
  tokens_in: number | null;
  tokens_out: number | null;
  /** Parts of tokens_in / tokens_out, when the provider reports them (read-usage.ts). */
  tokens_cached: number | null;
  /** Input tokens written to the prompt cache (Anthropic), part of tokens_in. */
  tokens_cache_write: number | null;
  tokens_reasoning: number | null;
  outcome: "ok" | "error";
  code: string | null;
  request_id: string | null;
  /** The endpoint's host and port (never its path, query or credentials). */
  server_address: string | null;
  server_port: number | null;
  /** The model's `temperature` / `max_tokens` keys, when set. */
  temperature: number | null;
  max_tokens: number | null;
  /** "json" when this request carries the answer's format (a response schema), else "text" (a tool turn may not). */
  output_type: "json" | "text";
  /** From the answer (response-meta.ts): its id, the model that answered, the provider's finish reason. */
  response_id: string | null;
  response_model: string | null;
  finish_reason: string | null;
}

export interface TurnMeta {
  agent?: string;
  /** 0-based provider turn within the ask. */
  turn: number;
  /** The ask's ceiling: `at` on the client's clock, `limitMs` for the message. */
  ceiling?: { at: number; limitMs: number };
  /** The ask's cancellation (a failed `parallel` sibling): the request in flight is aborted and nothing is retried. */
  signal?: AbortSignal;
}

const SNIPPET = 200;

export async function requestTurn(
  client: ProviderClient,
  model: ResolvedModel,
  adapter: ProviderAdapter,
  turn: TurnRequest,
  meta: TurnMeta,
): Promise<TurnResult> {
  assertSendable(model); // a journaled run's model without its key or endpoint (resolve-model.ts)
  const built = adapter.buildRequest(model, turn);
  mergeProviderOptions(built.body, model.providerOptions);
  const req = turn.onText ? adapter.streaming.request(built) : built;
  const wire = { url: req.url, headers: req.headers, body: JSON.stringify(req.body) };
  // The key, the password of a base URL that carries one (`https://user:tok@proxy/v1` from
  // LUMA_BASE_URL_…), and what of its path and query could be a token: errors and cassettes
  // may quote any of them (a 404 body echoing the path, fetch quoting the URL).
  const secrets = [...(model.apiKey ? [model.apiKey] : []), ...urlPasswordSecrets(req.url), ...baseUrlSecrets(model.baseUrl)];
  const info = { provider: model.provider, model: model.name, decl: model.decl, body: req.body, secretHeaders: req.secretHeaders, secrets };
  const maxRetries = client.maxRetries ?? MAX_HTTP_RETRIES;
  const server = serverOf(req.url);

  const timeoutMs = model.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const ceiling = meta.ceiling;
  /** What went wrong last, for the ceiling's message (the ceiling hides nothing). */
  let last: string | undefined;
  const ceilingError = () => providerErrors.askCeiling(model.decl, model.provider, meta.agent ?? "", ceiling!.limitMs, last && redact(last, secrets));
  /** The retry wait, unless it would end past the ask's ceiling: then fail now rather than sleep in vain. */
  const wait = async (ms: number) => {
    if (ceiling && client.now() + ms >= ceiling.at) throw ceilingError();
    await client.sleep(ms);
  };

  for (let attempt = 1; ; attempt++) {
    // Cancelled (before a try, or during a retry wait): the cancellation's reason, never a retry.
    if (meta.signal?.aborted) throw meta.signal.reason;
    // Each try gets the model's timeout, or what is left of the ask's ceiling if that is less.
    const left = ceiling ? Math.floor(ceiling.at - client.now()) : Infinity;
    if (left <= 0) throw ceilingError();
    const cutByCeiling = left < timeoutMs;
    const t0 = client.now();
    const emit = (status: number | null, outcome: "ok" | "error", extra: Partial<ProviderRequestEvent> = {}, content?: ContentThunk) =>
      client.trace?.({
        event: "provider.request",
        agent: meta.agent ?? null,
        model: model.decl,
        provider: model.provider,
        model_name: model.name,
        turn: meta.turn,
        attempt,
        status,
        duration_ms: Math.round((client.now() - t0) * 1000) / 1000,
        tokens_in: null,
        tokens_out: null,
        tokens_cached: null,
        tokens_cache_write: null,
        tokens_reasoning: null,
        outcome,
        code: outcome === "ok" ? null : "PROVIDER_ERROR",
        request_id: null,
        server_address: server.address,
        server_port: server.port,
        temperature: model.temperature ?? null,
        max_tokens: model.maxTokens ?? null,
        output_type: turn.format ? "json" : "text",
        response_id: null,
        response_model: null,
        finish_reason: null,
        ...extra,
      } satisfies ProviderRequestEvent, content);

    // A streamed try reads its body as it comes; each try starts a fresh reader.
    const stream = turn.onText ? openStreamReader(adapter.streaming.decoder(), turn.onText) : undefined;
    let res: WireResponse;
    try {
      res = await client.transport({ ...wire, timeoutMs: Math.min(left, timeoutMs), onChunk: stream && ((text) => stream.push(text)), signal: meta.signal }, info);
    } catch (e) {
      emit(null, "error");
      if (meta.signal?.aborted) throw meta.signal.reason;
      if (isLumaError(e)) throw e;
      // Text already on the user's screen cannot be taken back: no retry after it.
      if (stream?.emitted) throw providerErrors.connection(model.decl, model.provider, originOf(req.url), redact(connectionCause(e), secrets), attempt);
      if (e instanceof BodyTooLarge) throw providerErrors.tooLarge(model.decl, model.provider, e.limit);
      const timedOut = e instanceof RequestTimedOut;
      last = timedOut ? `no complete answer within ${e.timeoutMs} ms` : connectionCause(e);
      if (timedOut && cutByCeiling) throw ceilingError();
      if (attempt <= maxRetries) {
        await wait(retryDelayMs(attempt - 1, undefined));
        continue;
      }
      if (timedOut) throw providerErrors.timeout(model.decl, model.provider, timeoutMs, attempt);
      throw providerErrors.connection(model.decl, model.provider, originOf(req.url), redact(last, secrets), attempt);
    }

    const requestId = res.headers["x-request-id"] ?? res.headers["request-id"] ?? null;
    const parsed = tryParseJson(res.text);
    if (res.status >= 200 && res.status < 300) {
      let result: TurnResult;
      try {
        if (stream && !(parsed.ok && !stream.fed)) {
          if (!stream.fed) stream.push(res.text); // a replay, or a transport that cannot stream
          result = adapter.parseResponse(stream.finish(), meta.turn);
        } else {
          // Unstreamed (a plain JSON body: `luma test`'s scripted model, a server that ignores `stream`): read as is.
          if (!parsed.ok) throw new Error(`the body is not JSON (${parsed.error})`);
          result = adapter.parseResponse(parsed.value, meta.turn);
        }
      } catch (e) {
        emit(res.status, "error", { request_id: requestId });
        throw providerErrors.badBody(model.decl, model.provider, redact((e as Error).message, secrets));
      }
      const u = result.usage;
      emit(res.status, "ok", {
        tokens_in: u.input ?? null,
        tokens_out: u.output ?? null,
        tokens_cached: u.cached ?? null,
        tokens_cache_write: u.cacheWrite ?? null,
        tokens_reasoning: u.reasoning ?? null,
        request_id: requestId,
        response_id: result.response?.id === undefined ? null : redact(result.response.id, secrets),
        response_model: result.response?.model === undefined ? null : redact(result.response.model, secrets),
        finish_reason: result.response?.finishReason ?? null,
      }, () => ({ system: turn.system, transcript: turn.transcript, output: { text: result.text, toolCalls: result.toolCalls, finish: result.response?.finishReason ?? result.finish } }));
      return result;
    }

    emit(res.status, "error", { request_id: requestId });
    const body = parsed.ok ? parsed.value : undefined;
    const retryable = isRetryableStatus(res.status, res.headers);
    if (retryable && attempt <= maxRetries) {
      const hint = retryAfterMs(res.headers) ?? adapter.retryDelayFromBody?.(body);
      last = `HTTP ${res.status}`;
      await wait(retryDelayMs(attempt - 1, hint));
      continue;
    }
    const detail = (body !== undefined ? adapter.errorMessage(body) : undefined) ?? res.text.slice(0, SNIPPET).trim();
    throw providerErrors.status(model.decl, model.provider, res.status, redact(detail, secrets) || undefined, retryable, attempt);
  }
}

/** `server.address` / `server.port` of the request's URL: the port written, or the scheme's. */
function serverOf(url: string): { address: string | null; port: number | null } {
  try {
    const u = new URL(url);
    const port = u.port !== "" ? Number(u.port) : u.protocol === "https:" ? 443 : u.protocol === "http:" ? 80 : null;
    return { address: u.hostname || null, port };
  } catch {
    return { address: null, port: null };
  }
}

function connectionCause(e: unknown): string {
  if (e instanceof Error) {
    if (e.name === "TimeoutError") return "the request timed out";
    const code = (e as { code?: unknown }).code;
    return typeof code === "string" && code !== "" ? `${code} (${e.message})` : e.message;
  }
  return String(e);
}

