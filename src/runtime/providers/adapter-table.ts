/** Provider name (spec §5 `provider:`) → its adapter: one family per file, one line each. */
import { createAnthropicAdapter } from "./anthropic";
import { createAzureAdapter } from "./azure";
import { createGeminiAdapter } from "./gemini";
import { compatibleVariant, createOpenAiAdapter, openAiVariant } from "./openai-compatible";
import type { ProviderAdapter, ProviderName } from "./provider-types";

export const ADAPTERS: Readonly<Record<ProviderName, () => ProviderAdapter>> = {
  openai: () => createOpenAiAdapter(openAiVariant),
  "openai-compatible": () => createOpenAiAdapter(compatibleVariant),
  azure: createAzureAdapter,
  anthropic: createAnthropicAdapter,
  gemini: createGeminiAdapter,
};

const made = new Map<ProviderName, ProviderAdapter>();

/** Adapters hold no state: one per provider name, made on first use. */
export function adapterFor(provider: ProviderName): ProviderAdapter {
  let a = made.get(provider);
  if (!a) made.set(provider, (a = ADAPTERS[provider]()));
  return a;
}
