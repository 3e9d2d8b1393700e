/**
 * Azure OpenAI (PROVIDERS.md §2): the OpenAI body and response, another URL and auth header.
 *
 * - With `api_version`, the dated API: `{base}/deployments/{deployment}/chat/completions
 *   ?api-version=…`, base = `https://{resource}.openai.azure.com/openai` (what the SDK's
 *   AzureOpenAI builds).
 * - Without, the v1 API: `{base}/chat/completions`, base = `…/openai/v1`, the deployment in
 *   the body's `model`.
 * The key goes in `api-key` on both (Bearer is for Entra ID tokens).
 */
import { createOpenAiAdapter, openAiVariant, type OpenAiVariant } from "./openai-compatible";
import type { ProviderAdapter } from "./provider-types";

export const azureVariant: OpenAiVariant = {
  ...openAiVariant,
  url: (m) =>
    m.apiVersion
      ? `${m.baseUrl}/deployments/${encodeURIComponent(m.name)}/chat/completions?api-version=${encodeURIComponent(m.apiVersion)}`
      : `${m.baseUrl}/chat/completions`,
  authHeaders: (m): Record<string, string> => (m.apiKey ? { "api-key": m.apiKey } : {}),
};

export const createAzureAdapter = (): ProviderAdapter => createOpenAiAdapter(azureVariant);
