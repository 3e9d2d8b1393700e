/** Provider name (spec §5 `provider:`) → its adapter: one family per file, one line each. */
import { createAnthropicAdapter } from "./anthropic";
import { createAzureAdapter } from "./azure";
import { createGeminiAdapter } from "./gemini";
import { compatibleVariant, createOpenAiAdapter, openAiVariant } from "./openai-compatible";
import { createOpenAiResponsesAdapter } from "./openai-responses";
import type { ProviderAdapter, ProviderName, ResolvedModel } from "./provider-types";

export const ADAPTERS: Readonly<Record<ProviderName, () => ProviderAdapter>> = {
  openai: () => createOpenAiAdapter(openAiVariant),
  "openai-compatible": () => createOpenAiAdapter(compatibleVariant),
  azure: createAzureAdapter,
  anthropic: createAnthropicAdapter,
  gemini: createGeminiAdapter,
};

/** `api: "responses"` on a `provider: "openai"` model: the Responses API instead of Chat Completions. */
export const RESPONSES_ADAPTER = "openai/responses";

const FACTORIES: Readonly<Record<string, () => ProviderAdapter>> = { ...ADAPTERS, [RESPONSES_ADAPTER]: createOpenAiResponsesAdapter };

const made = new Map<string, ProviderAdapter>();

/** Adapters hold no state: one per provider name (and API), made on first use. */
export function adapterFor(provider: ProviderName | Pick<ResolvedModel, "provider" | "api">): ProviderAdapter {
  const key = typeof provider === "string" ? provider : provider.api === "responses" ? RESPONSES_ADAPTER : provider.provider;
  let a = made.get(key);
  if (!a) made.set(key, (a = FACTORIES[key]()));
  return a;
}
