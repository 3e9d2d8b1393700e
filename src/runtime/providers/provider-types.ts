/**
 * One interface for every provider family (spec §7 provider mapping, wire notes).
 *
 * The `ask` flow speaks a neutral language — a transcript of user text, assistant turns and
 * tool results; tool specs; a tool choice; an optional final JSON schema — and an adapter
 * turns it into its provider's HTTP request and reads the answer back. Assistant turns are
 * kept in the provider's own shape (`native`) and replayed verbatim, because providers
 * validate their history (Anthropic tool_use ids, Gemini thought signatures).
 */

import type { ProviderName } from "../../language/provider-families";
import type { ReasoningEffort } from "../../language/model-options";
import type { ConstJson } from "../../language/value-kinds";
import type { LumaError } from "../../diagnostics/luma-error";

export type { ProviderName };

export type JsonSchema = Record<string, unknown>;

/** A `model` declaration with defaults, environment and overrides applied (spec §5). */
export interface ResolvedModel {
  /** The declaration name (`GPT54Mini`): what traces and errors call the model. */
  decl: string;
  provider: ProviderName;
  /** The provider's model id; for Azure the deployment name. */
  name: string;
  /** Azure: the model behind the deployment (key `name`, when `deployment` is set too). */
  modelId?: string;
  temperature?: number;
  maxTokens?: number;
  /** Model keys `top_p`, `seed`, `stop`, `reasoning_effort` (issue #26 §5): each adapter maps them onto its wire. */
  topP?: number;
  seed?: number;
  stop?: readonly string[];
  reasoningEffort?: ReasoningEffort;
  /** Model key `provider_options`: merged into every request body, last (provider-options.ts). */
  providerOptions?: { readonly [key: string]: ConstJson };
  /** SDK-style base URL without a trailing slash (spec §5 `base_url`). */
  baseUrl: string;
  /** Never printed, traced or recorded. */
  apiKey?: string;
  apiVersion?: string;
  /** Model key `timeout`: one request's deadline, connect to last byte (default in transport.ts). */
  timeoutMs?: number;
  /** Model key `api` (provider "openai" only): "responses" picks the Responses API adapter. */
  api?: "chat" | "responses";
  /** Model key `reasoning_model` (Responses API): set, it decides; unset, the model's name does. */
  reasoningModel?: boolean;
  /** Model keys `price_in_per_mtok` / `price_out_per_mtok`: USD per million tokens. */
  price?: { inPerMtok?: number; outPerMtok?: number };
  /**
   * A journaled run's model whose key or endpoint is missing (resolve-model.ts): the error
   * a request to it fails with. Set only where requests may all be answered by the journal.
   */
  unsendable?: () => LumaError;
}

export interface ToolSpec {
  name: string;
  description?: string;
  /** The tool's `__tool_<name>_input` as plain JSON Schema. */
  parameters: JsonSchema;
}

export type ToolChoice = { type: "auto" } | { type: "none" } | { type: "tool"; name: string };

/** The final answer's schema: always an object root (non-object targets are wrapped). */
export interface ResponseFormat {
  name: string;
  schema: JsonSchema;
}

export interface ToolCall {
  /** The provider's id, or one made up for Gemini calls that came without one. */
  id: string;
  /** False when `id` was made up: it must not be echoed to the provider. */
  nativeId: boolean;
  name: string;
  /** Parsed arguments; undefined when `argsError` is set. */
  args: unknown;
  /** The arguments were not valid JSON (OpenAI sends them as text). */
  argsError?: string;
}

export interface ToolResult {
  call: ToolCall;
  /** The tool's validated output, or `{ error: { code, message, retryable } }`. */
  content: unknown;
  isError: boolean;
  /**
   * What the model is shown instead of `content`'s JSON when the tool's `max_result_chars`
   * cut it (ask/result-cut.ts): the first characters of that JSON and the cut marker.
   */
  shown?: string;
}

export type TranscriptItem =
  | { kind: "user"; text: string }
  // `text` and `toolCalls` are the same turn read back (TurnResult): what telemetry exports as messages.
  // `native` undefined: a turn from a thread's stored, provider-neutral history (issue #26 §1) —
  // each adapter writes it in its own shape from `text` and `toolCalls` (thinking is not kept).
  | { kind: "assistant"; native: unknown; text?: string; toolCalls?: readonly ToolCall[] }
  | { kind: "tool_results"; results: ToolResult[] };

/** What one provider request carries; `tools`/`format` are the adapter's prepared forms. */
export interface TurnRequest {
  /**
   * Set: the request streams (issue #26 §2) and each piece of the answer's text is handed
   * here as it arrives; the turn's result is the same as without streaming.
   */
  onText?: (delta: string) => void;
  system?: string;
  transcript: readonly TranscriptItem[];
  tools?: PreparedTools;
  toolChoice: ToolChoice;
  format?: PreparedFormat;
}

export type FinishReason = "tool_calls" | "stop" | "length" | "refusal" | "other";

/** Tokens of one response (read-usage.ts): `cached` and `cacheWrite` are parts of `input`, `reasoning` part of `output`. */
export interface Usage {
  input?: number;
  output?: number;
  cached?: number;
  /** Input tokens written to the provider's prompt cache (Anthropic's cache_creation_input_tokens). */
  cacheWrite?: number;
  reasoning?: number;
}

/** The answer's id, the model that answered and the provider's own finish reason (response-meta.ts). */
export interface ResponseMeta {
  id?: string;
  model?: string;
  finishReason?: string;
}

export interface TurnResult {
  /** The assistant turn in the provider's shape, to append to the transcript as is. */
  assistant: unknown;
  /** Concatenated answer text (thinking excluded). */
  text: string;
  toolCalls: ToolCall[];
  finish: FinishReason;
  refusal?: string;
  usage: Usage;
  /** For telemetry (`gen_ai.response.*`); absent from scripted answers. */
  response?: ResponseMeta;
}

/** Adapter-prepared tool declarations / final format: built once per ask site, reused per request. */
export interface PreparedTools {
  specs: readonly ToolSpec[];
  wire: unknown;
  /** For "openai-compatible": the forced tool's declaration alone (servers that only take string choices). */
  wireByName?: ReadonlyMap<string, unknown>;
}
export interface PreparedFormat {
  format: ResponseFormat;
  wire: unknown;
}

export interface ProviderHttpRequest {
  url: string;
  headers: Record<string, string>;
  /** Names of headers that hold a secret: never recorded, traced or shown. */
  secretHeaders: readonly string[];
  body: Record<string, unknown>;
}

/**
 * What a family's strict mode takes (its record's `strictSchema`, provider-family.ts), asked
 * at start-up (ask/ask-format-support.ts) so a program never sends a request that every call
 * would see rejected.
 */
export interface StrictSchemaSubset {
  /**
   * Whether its final-answer format takes a recursive schema (`$defs` that refer to
   * themselves). Where it does not, a program that asks for one is rejected at start-up
   * instead of failing at the provider.
   */
  readonly recursiveFormat: boolean;
  /**
   * Why its strict mode cannot take this final-answer schema (a documented limit, a keyword
   * it has no way to express), worded to follow "the schema …"; undefined when it can.
   */
  formatProblem?(schema: JsonSchema): string | undefined;
  /** The same for a tool's input schema (a tool that cannot be strict simply goes non-strict where a provider allows it). */
  toolSchemaProblem?(schema: JsonSchema): string | undefined;
}

/**
 * One streamed answer, read event by event (server-sent events, already split): each text
 * delta is handed on as it comes, and at the end `finish` gives the body the same answer
 * would have had unstreamed — so `parseResponse` reads streamed and unstreamed answers alike.
 * Throws a plain Error (worded for the user) on an error event or a stream that never ended.
 */
export interface StreamDecoder {
  event(name: string | undefined, data: string, onText: (delta: string) => void): void;
  finish(): unknown;
}

/** How a wire format streams: the request that asks for it, and the reader of its events. */
export interface WireStreaming {
  request(req: ProviderHttpRequest): ProviderHttpRequest;
  decoder(): StreamDecoder;
}

/** One wire format's request builder and response reader (a family folder's adapter file). */
export interface WireAdapter {
  readonly streaming: WireStreaming;
  readonly family: "openai" | "anthropic" | "gemini" | "mcp";
  prepareTools(tools: readonly ToolSpec[]): PreparedTools;
  prepareFormat(format: ResponseFormat): PreparedFormat;
  buildRequest(model: ResolvedModel, turn: TurnRequest): ProviderHttpRequest;
  /** Throws a plain Error (worded for the user) when the body is not the provider's shape. */
  parseResponse(body: unknown, turnIndex: number): TurnResult;
  /** The provider's own error text from an error body, if it has one. */
  errorMessage(body: unknown): string | undefined;
  /** A retry hint carried in an error body (Gemini's RetryInfo), in ms. */
  retryDelayFromBody?(body: unknown): number | undefined;
  /** Undo strict-mode adaptations on parsed tool arguments (OpenAI: optional → nullable). */
  normaliseArgs(tool: ToolSpec, args: unknown): unknown;
  /** Same for the final answer, before local validation. */
  normaliseFinal(format: ResponseFormat, value: unknown): unknown;
}

/** What the ask flow talks to: a family's wire adapter with its strict-schema subset (adapter-table.ts). */
export type ProviderAdapter = WireAdapter & StrictSchemaSubset;
