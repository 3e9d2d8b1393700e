/**
 * Provider name (spec §5 `provider:`) and API → its adapter: the family's wire adapter
 * (families.ts) with the family's strict-schema subset, which is what the ask flow and the
 * start-up checks talk to. Adapters hold no state: one per family and API, made on first use.
 */
import { PROVIDER_FAMILIES, wireOf } from "./families";
import type { ProviderAdapter, ProviderName, ResolvedModel } from "./provider-types";

const made = new Map<string, ProviderAdapter>();

export function adapterFor(provider: ProviderName | Pick<ResolvedModel, "provider" | "api">): ProviderAdapter {
  const model = typeof provider === "string" ? { provider } : provider;
  const api = model.api === "responses" ? "responses" : "chat";
  const key = `${model.provider}/${api}`;
  let a = made.get(key);
  if (!a) made.set(key, (a = { ...wireOf(model).createAdapter(), ...PROVIDER_FAMILIES[model.provider].strictSchema }));
  return a;
}
