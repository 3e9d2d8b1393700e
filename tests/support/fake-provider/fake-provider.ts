/**
 * A fake model provider for tests and benchmarks: one Bun.serve on 127.0.0.1, port 0, that
 * speaks the three wire formats faithfully (`wire-formats.ts`) at the paths the adapters use:
 *
 *   OpenAI / compatible   POST /v1/chat/completions
 *   OpenAI Responses      POST /v1/responses
 *   Azure v1              POST /openai/v1/chat/completions
 *   Azure dated           POST /openai/deployments/{deployment}/chat/completions?api-version=…
 *   Anthropic             POST /v1/messages
 *   Gemini                POST /v1beta/models/{model}:generateContent (and :streamGenerateContent?alt=sse)
 *
 * Each test scripts it with a list of turns — tool calls, a final JSON, raw text, an HTTP
 * status — answered in order, one per request whatever the path; it records every request
 * (path, query, headers, parsed body) so tests assert request shapes. With `expectKey` set it
 * answers a request without that key as the provider would (401; Gemini 400), echoing the
 * key it got — the canary for "keys never leak".
 *
 * @example
 *   const fake = await startFakeProvider();
 *   fake.script([{ toolCalls: [{ name: "calculate", args: { a: 1, b: 2, operation: "add" } }] }, { json: { result: 3 } }]);
 *   env.LUMA_BASE_URL_M = fake.baseUrl("openai");
 */
import { errorBody, render, type Family, type FakeTurn } from "./wire-formats";
import { anthropicStream, chatCompletionStream, geminiStream, responsesStream } from "./wire-streams";

export type { FakeTurn, FakeToolCall, Family } from "./wire-formats";

export interface RecordedRequest {
  family: Family;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: any;
}

export interface FakeProvider {
  url: string;
  /** The base_url a model of this provider should use to reach the fake. */
  baseUrl(provider: "openai" | "openai-responses" | "openai-compatible" | "azure" | "azure-dated" | "anthropic" | "gemini"): string;
  script(turns: FakeTurn[]): void;
  /** Every request since the last `script`, in order. */
  readonly requests: RecordedRequest[];
  /** Turns still unanswered. */
  readonly pending: number;
  /** Require this key (in the family's auth header); a request without it gets the provider's auth error. */
  expectKey(key: string | undefined): void;
  /** Don't record requests (the benchmark). */
  recording: boolean;
  /** A fixed wait before each answer, in ms (0: none): a provider's latency, for the `parallel` benchmark. */
  latencyMs: number;
  stop(): void;
}

export function familyOf(path: string): Family | undefined {
  if (path.endsWith("/chat/completions")) return "openai";
  if (path.endsWith("/v1/responses")) return "responses";
  if (path.endsWith("/v1/messages")) return "anthropic";
  if (/\/v1beta\/models\/[^/]+:(generateContent|streamGenerateContent)$/.test(path)) return "gemini";
  return undefined;
}

const keyOf = (family: Family, h: Headers): string | undefined => {
  if (family === "anthropic") return h.get("x-api-key") ?? undefined;
  if (family === "gemini") return h.get("x-goog-api-key") ?? undefined;
  return h.get("api-key") ?? h.get("authorization")?.replace(/^Bearer /, "") ?? undefined;
};

const STREAMS = { openai: chatCompletionStream, responses: responsesStream, anthropic: anthropicStream, gemini: geminiStream };

export async function startFakeProvider(): Promise<FakeProvider> {
  let turns: FakeTurn[] = [];
  let served = 0;
  let requests: RecordedRequest[] = [];
  let key: string | undefined;

  const fake: FakeProvider = {
    url: "",
    baseUrl(provider) {
      switch (provider) {
        case "openai":
        case "openai-responses":
        case "openai-compatible":
          return `${fake.url}/v1`;
        case "azure":
          return `${fake.url}/openai/v1`;
        case "azure-dated":
          return `${fake.url}/openai`;
        default:
          return fake.url;
      }
    },
    script(next) {
      turns = [...next];
      served = 0;
      requests = [];
    },
    get requests() {
      return requests;
    },
    get pending() {
      return turns.length;
    },
    expectKey(k) {
      key = k;
    },
    recording: true,
    latencyMs: 0,
    stop: () => server.stop(true),
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const family = familyOf(url.pathname);
      if (req.method !== "POST" || !family) return new Response(`fake provider: no route ${req.method} ${url.pathname}`, { status: 404 });
      const text = await req.text();
      const body = JSON.parse(text);
      if (fake.recording) {
        const headers: Record<string, string> = {};
        req.headers.forEach((v, k) => (headers[k] = v));
        requests.push({ family, path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body });
      }
      const model = family === "gemini" ? decodeURIComponent(url.pathname.split("/").pop()!.replace(/:(generateContent|streamGenerateContent)$/, "")) : body.model;
      if (key !== undefined) {
        const got = keyOf(family, req.headers);
        if (got !== key) {
          // As the providers do: OpenAI echoes the key it was given; Gemini says 400, not 401.
          const status = family === "gemini" ? 400 : 401;
          const message = family === "gemini" ? `API key not valid. Please pass a valid API key. (${got})` : `Incorrect API key provided: ${got}.`;
          return Response.json(errorBody(family, status, message), { status });
        }
      }
      const turn = turns.shift();
      served++;
      if (fake.latencyMs > 0) await Bun.sleep(fake.latencyMs);
      if (!turn) return Response.json(errorBody(family, 500, "fake provider: no scripted turn left"), { status: 500 });
      const rendered = render(family, turn, served, String(model));
      // A streamed request: the same answer as the provider's server-sent events.
      const streamed = family === "gemini" ? url.pathname.endsWith(":streamGenerateContent") && url.searchParams.get("alt") === "sse" : body.stream === true;
      // A `rawBody` turn is sent exactly as given, streamed or not (a hand-written stream).
      const r = streamed && !("rawBody" in turn) ? STREAMS[family](rendered) : rendered;
      return new Response(r.body, { status: r.status, headers: r.headers });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}
