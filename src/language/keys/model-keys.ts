/**
 * The keys of a `model` block (spec §5; `timeout`, `api`, the prices are extensions): the
 * one table the checker, the runtime's model resolution (`resolve-model.ts`), completion
 * and the first-hour hints read. The providers are the families of `provider-families.ts`;
 * per-provider defaults (key variable, base URL) live with each family's folder
 * (`runtime/providers/<family>/`); `base_url` for "openai-compatible" and `api` for OpenAI
 * only are rule files.
 */
import { bool, constObject, envName, int, nonNegative, num, oneOf, str, stringList } from "../value-kinds";
import { REASONING_EFFORTS } from "../model-options";
import { PROVIDER_NAMES, providerNamesInProse } from "../provider-families";
import { keyTable } from "./key-spec";

/** The values `provider:` takes: the provider families, in their table's order. */
export const PROVIDERS = PROVIDER_NAMES;

export const MODEL_KEYS = keyTable({
  provider: { kind: oneOf(...PROVIDERS), required: true, doc: `The provider family: ${providerNamesInProse()}.` },
  name: { kind: str, required: true, doc: "The provider's model id (for Azure, the model behind the deployment)." },
  temperature: { kind: num, doc: "Sampling temperature sent with every request." },
  max_tokens: { kind: int(1), doc: "The most tokens one answer may hold." },
  // Sampling and reasoning (issue #26 §5); which API takes which: language/model-options.ts.
  top_p: { kind: num, field: "topP", doc: "Nucleus sampling: the probability mass sampled from (0 to 1)." },
  seed: { kind: int(), doc: "Asks for repeatable sampling (OpenAI Chat, Azure, compatible APIs, Gemini)." },
  stop: { kind: stringList, doc: "Strings that end the answer where the model writes one." },
  reasoning_effort: { kind: oneOf(...REASONING_EFFORTS), field: "reasoningEffort", doc: 'How hard the model thinks: "low", "medium" or "high" (mapped per provider; docs/language/models.md).' },
  provider_options: { kind: constObject, field: "providerOptions", doc: "A constant object merged into every request body of this model, last (never the keys Luma writes)." },
  base_url: { kind: str, doc: 'Where requests go, as the provider\'s SDK means it; required for "openai-compatible".' },
  api_key_env: { kind: envName, doc: "The environment variable holding the API key (default per provider)." },
  deployment: { kind: str, doc: "Azure: the deployment requests go to." },
  api_version: { kind: str, doc: "Azure: the dated api-version (none: the /openai/v1 API)." },
  // ms, one provider request from connect to its last byte; unset, the transport's 300000.
  timeout: { kind: int(1), doc: "ms, one provider request from connect to its last byte (default 300000)." },
  // Which OpenAI API a `provider: "openai"` model speaks (rule model-api): Chat Completions by default.
  api: { kind: oneOf("chat", "responses"), default: "chat", doc: 'OpenAI only: "chat" (Chat Completions) or "responses" (the Responses API).' },
  // Not given: decided by the model's name (the o-series, the gpt-5 family): responses-api.ts.
  reasoning_model: { kind: bool, field: "reasoningModel", doc: "Responses API: whether the model reasons, so its encrypted reasoning is asked for (not given: the o-series and gpt-5 family by name)." },
  // USD per million tokens: `--usage` and the `run.usage` trace event add a cost.
  price_in_per_mtok: { kind: nonNegative, doc: "USD per million input tokens, for --usage and run.usage." },
  price_out_per_mtok: { kind: nonNegative, doc: "USD per million output tokens, for --usage and run.usage." },
});
