/**
 * The sampling and reasoning options of a `model` block (issue #26 §5) and which API takes
 * which: `top_p`, `seed`, `stop`, `reasoning_effort`, and the request-body keys Luma itself
 * writes, which `provider_options` may not set. One table, read by the checker (a key the
 * model's API does not take is a check error naming the key and the API) and documented in
 * docs/language/models.md; each family's adapter (`runtime/providers/<family>/`) maps the
 * options onto its wire.
 *
 * The APIs are the wires a model speaks: a `provider: "openai"` model speaks Chat
 * Completions, or the Responses API with `api: "responses"`.
 */
import type { ProviderName } from "./provider-families";

export const MODEL_OPTION_KEYS = ["top_p", "seed", "stop", "reasoning_effort"] as const;
export type ModelOptionKey = (typeof MODEL_OPTION_KEYS)[number];

export type ModelApi = "openai-chat" | "openai-responses" | "openai-compatible" | "azure" | "anthropic" | "gemini" | "mcp";

export interface ModelApiOptions {
  /** How messages and errors name it. */
  title: string;
  /** The options this API has no field for. */
  unsupported: readonly ModelOptionKey[];
  /**
   * The body paths Luma writes (a dotted path is a field inside an object Luma writes, which
   * `provider_options` may otherwise add to): setting one would fight the runtime.
   */
  reserved: readonly string[];
  /** The body paths `reasoning_effort` writes: reserved too when the model sets it. */
  effortPaths: readonly string[];
}

const CHAT_RESERVED = ["model", "messages", "tools", "tool_choice", "parallel_tool_calls", "response_format", "stream", "stream_options"];

export const MODEL_APIS: Readonly<Record<ModelApi, ModelApiOptions>> = {
  "openai-chat": { title: "OpenAI Chat Completions", unsupported: [], reserved: CHAT_RESERVED, effortPaths: ["reasoning_effort"] },
  "openai-responses": {
    title: "the OpenAI Responses API",
    unsupported: ["seed", "stop"],
    reserved: ["model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls", "text", "include", "store", "stream"],
    effortPaths: ["reasoning.effort"],
  },
  "openai-compatible": { title: "an OpenAI-compatible Chat Completions API", unsupported: [], reserved: CHAT_RESERVED, effortPaths: ["reasoning_effort"] },
  azure: { title: "Azure OpenAI", unsupported: [], reserved: CHAT_RESERVED, effortPaths: ["reasoning_effort"] },
  anthropic: {
    title: "the Anthropic Messages API",
    // The Messages API's current types have no seed and no top_p (a retired sampling parameter).
    unsupported: ["seed", "top_p"],
    reserved: ["model", "messages", "system", "tools", "tool_choice", "stream", "output_config.format"],
    effortPaths: ["thinking", "output_config.effort"],
  },
  gemini: {
    title: "the Gemini API",
    unsupported: [],
    reserved: ["contents", "systemInstruction", "tools", "toolConfig", "generationConfig.responseMimeType", "generationConfig.responseSchema", "generationConfig.responseJsonSchema"],
    effortPaths: ["generationConfig.thinkingConfig"],
  },
  // sampling/createMessage (runtime/providers/mcp): the client picks the model; no top_p, seed or effort.
  mcp: {
    title: "MCP sampling (sampling/createMessage)",
    unsupported: ["top_p", "seed", "reasoning_effort"],
    reserved: ["messages", "systemPrompt", "maxTokens", "temperature", "stopSequences", "modelPreferences", "tools", "toolChoice"],
    effortPaths: [],
  },
};

/** The API a model speaks, from its `provider` and `api` keys. */
export function modelApiOf(provider: ProviderName, api: string | undefined): ModelApi {
  if (provider === "openai") return api === "responses" ? "openai-responses" : "openai-chat";
  return provider;
}

/** `reasoning_effort`'s levels, lowest first. */
export const REASONING_EFFORTS = ["low", "medium", "high"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];
