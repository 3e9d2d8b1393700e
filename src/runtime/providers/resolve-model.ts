/**
 * A `model` declaration → a ResolvedModel (spec §5): per-provider defaults for the key
 * variable and the base URL (each family's record, families.ts), `api_key_env`, Azure's endpoint/deployment/api_version, and the
 * `LUMA_BASE_URL_<MODELNAME>` override (extension) that redirects any model — tests and
 * proxies use it without editing the program. The keys are read through the model key
 * table (`language/keys/model-keys.ts`), which also names the providers.
 *
 * Resolution happens at a model's first `ask`, not at startup: a program whose asks never run
 * needs no key. What a missing key or endpoint does depends on how requests go out:
 *
 *   replay     `--replay`, `luma test`: nothing is ever sent, so it is fine
 *   journaled  a durable run: the journal may answer every request (a resumed run), so the
 *              failure is kept on the model (`unsendable`) and thrown by `assertSendable`
 *              when a request is about to be sent — same message, code and location
 *   otherwise  thrown at once, before the ask does anything
 */
import { readKeys, type KeyValues } from "../../language/keys/key-spec";
import { MODEL_KEYS } from "../../language/keys/model-keys";
import type { ModelDecl } from "../../syntax/ast";
import type { LumaError } from "../../diagnostics/luma-error";
import { PROVIDER_FAMILIES } from "./families";
import { providerErrors } from "./provider-errors";
import type { ProviderDefaults } from "./provider-family";
import type { ProviderName, ResolvedModel } from "./provider-types";

/** Each provider's defaults, read from its family's record (docs/language/models.md lists them). */
export const PROVIDER_DEFAULTS: Readonly<Record<ProviderName, ProviderDefaults>> = Object.fromEntries(
  Object.entries(PROVIDER_FAMILIES).map(([name, family]) => [name, family.defaults]),
) as Record<ProviderName, ProviderDefaults>;

/** Where a request "goes" that is never sent (a replay, an unsendable model) when the program names no host. */
const NEVER_CONTACTED = "https://replay.invalid";

export interface ResolveOptions {
  replay?: boolean;
  journaled?: boolean;
}

type ModelEntries = KeyValues<typeof MODEL_KEYS>;

const modelEntries = (decl: ModelDecl): ModelEntries => readKeys(MODEL_KEYS, decl.entries);

const trimSlash = (url: string): string => url.replace(/\/+$/, "");

export const baseUrlOverrideVar = (decl: string): string => `LUMA_BASE_URL_${decl.toUpperCase()}`;

/** The provider a model declaration names (`openai` when it names none), without resolving keys or URLs. */
export const modelProvider = (decl: ModelDecl): ProviderName =>
  modelEntries(decl).provider ?? "openai";

/** What `adapterFor` needs of a declaration (provider and API), without resolving keys or URLs. */
export function modelAdapterRef(decl: ModelDecl): Pick<ResolvedModel, "provider" | "api"> {
  const m = modelEntries(decl);
  const provider: ProviderName = m.provider ?? "openai";
  return { provider, api: provider === "openai" && m.api === "responses" ? "responses" : undefined };
}

export function resolveModel(
  decl: ModelDecl,
  env: Record<string, string | undefined>,
  opts: ResolveOptions = {},
): ResolvedModel {
  // The first thing missing, in the order the up-front check names it: the endpoint, then the key.
  let missing: (() => LumaError) | undefined;
  const lacks = (error: () => LumaError): void => {
    if (opts.replay) return;
    if (!opts.journaled) throw error();
    missing ??= error;
  };
  const m = modelEntries(decl);
  const provider: ProviderName = m.provider ?? "openai";
  const defaults = PROVIDER_DEFAULTS[provider] ?? {};
  const override = env[baseUrlOverrideVar(decl.name)];
  let base = override || m.base_url;
  if (!base && provider === "azure" && env.AZURE_OPENAI_ENDPOINT) {
    // The endpoint is the resource host; the SDK's base adds /openai (dated) or /openai/v1.
    base = trimSlash(env.AZURE_OPENAI_ENDPOINT) + (m.api_version ? "/openai" : "/openai/v1");
  }
  base ??= defaults.baseUrl;
  if (!base) {
    lacks(() => providerErrors.noBaseUrl(decl.name, provider));
    base = NEVER_CONTACTED;
  }

  const keyEnv = m.api_key_env ?? defaults.keyEnv;
  const apiKey = keyEnv ? env[keyEnv] || undefined : undefined;
  if (keyEnv && !apiKey) lacks(() => providerErrors.missingKey(decl.name, provider, keyEnv));

  return {
    decl: decl.name,
    provider,
    name: provider === "azure" ? (m.deployment ?? m.name ?? "") : (m.name ?? ""),
    modelId: provider === "azure" ? m.name : undefined,
    temperature: m.temperature,
    maxTokens: m.max_tokens ?? defaults.maxTokens,
    topP: m.topP,
    seed: m.seed,
    stop: m.stop,
    reasoningEffort: m.reasoningEffort,
    providerOptions: m.providerOptions,
    baseUrl: trimSlash(base),
    apiKey,
    apiVersion: provider === "azure" ? m.api_version : undefined,
    timeoutMs: m.timeout,
    api: provider === "openai" && m.api === "responses" ? "responses" : undefined,
    reasoningModel: m.reasoningModel,
    price: m.price_in_per_mtok === undefined && m.price_out_per_mtok === undefined ? undefined : { inPerMtok: m.price_in_per_mtok, outPerMtok: m.price_out_per_mtok },
    ...(missing === undefined ? undefined : { unsendable: missing }),
  };
}

/** Marks the error `assertSendable` throws: the request was not sent, so it counts as none (ask-flow.ts). */
const UNSENT = Symbol("luma.unsent");

export const isUnsent = (e: unknown): boolean => typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[UNSENT] === true;

/** Throws the missing key or endpoint of a model resolved for a journaled run, now that a request is to be sent. */
export function assertSendable(model: ResolvedModel): void {
  if (model.unsendable !== undefined) throw Object.assign(model.unsendable(), { [UNSENT]: true });
}
