/**
 * Azure OpenAI (wire notes §2): the OpenAI body and response, another URL and auth header.
 *
 * - With `api_version`, the dated API: `{base}/deployments/{deployment}/chat/completions
 *   ?api-version=…`, base = `https://{resource}.openai.azure.com/openai` (what the SDK's
 *   AzureOpenAI builds).
 * - Without, the v1 API: `{base}/chat/completions`, base = `…/openai/v1`, the deployment in
 *   the body's `model`.
 * The key goes in `api-key` on both (Bearer is for Entra ID tokens).
 *
 * `max_tokens` → which field (Azure OpenAI reasoning-model docs): reasoning models (o1, o3,
 * o4-mini, gpt-5, codex) take only `max_completion_tokens`; other models take `max_tokens`
 * on the dated APIs — the GA `2024-10-21` inference API does not define
 * `max_completion_tokens` — and `max_completion_tokens` on the v1 API (OpenAI's current
 * field). The model is the `name` key (the deployment name need not say what runs behind it).
 */
import { createOpenAiAdapter, openAiVariant, type OpenAiVariant } from "../openai/chat-completions";
import type { ResolvedModel, WireAdapter } from "../provider-types";

const REASONING_MODEL = /^(o\d|gpt-5|codex)/i;

export const azureMaxTokensField = (m: ResolvedModel): "max_completion_tokens" | "max_tokens" =>
  REASONING_MODEL.test(m.modelId ?? m.name) || !m.apiVersion ? "max_completion_tokens" : "max_tokens";

export const azureVariant: OpenAiVariant = {
  ...openAiVariant,
  maxTokensField: azureMaxTokensField,
  url: (m) =>
    m.apiVersion
      ? `${m.baseUrl}/deployments/${encodeURIComponent(m.name)}/chat/completions?api-version=${encodeURIComponent(m.apiVersion)}`
      : `${m.baseUrl}/chat/completions`,
  authHeaders: (m): Record<string, string> => (m.apiKey ? { "api-key": m.apiKey } : {}),
};

export const createAzureAdapter = (): WireAdapter => createOpenAiAdapter(azureVariant);
