/**
 * The provider families, one line each: `provider:` value → its folder's record
 * (provider-family.ts). Typed by the names of `language/provider-families.ts`, so a name
 * there without a record here — or a record here for no name — does not compile. What
 * reads a family reads it through this table: adapters (adapter-table.ts), defaults
 * (resolve-model.ts), the start-up strict-schema checks (ask/ask-format-support.ts), the
 * scripted answers of `luma test` (testing/scripted-model.ts) and the telemetry name
 * (handed to telemetry/otel by start-program.ts).
 */
import type { ProviderName } from "../../language/provider-families";
import { anthropicFamily } from "./anthropic/anthropic-family";
import { azureFamily } from "./azure/azure-family";
import { geminiFamily } from "./gemini/gemini-family";
import { mcpFamily } from "./mcp/mcp-family";
import { compatibleFamily } from "./openai-compatible/compatible-family";
import { openAiFamily } from "./openai/openai-family";
import type { ProviderFamily, WireFormat } from "./provider-family";
import type { ResolvedModel } from "./provider-types";

export const PROVIDER_FAMILIES: Readonly<Record<ProviderName, ProviderFamily>> = {
  openai: openAiFamily,
  "openai-compatible": compatibleFamily,
  azure: azureFamily,
  anthropic: anthropicFamily,
  gemini: geminiFamily,
  mcp: mcpFamily,
};

/** The wire format a model speaks: its family's, or the Responses API where `api: "responses"` picks it. */
export function wireOf(model: Pick<ResolvedModel, "provider" | "api">): WireFormat {
  const family = PROVIDER_FAMILIES[model.provider];
  return model.api === "responses" && family.responsesWire ? family.responsesWire : family.wire;
}

/** `gen_ai.provider.name` of a provider's spans; a name no family has (none should reach here) is kept as is. */
export const telemetryNameOf = (provider: string): string =>
  Object.hasOwn(PROVIDER_FAMILIES, provider) ? PROVIDER_FAMILIES[provider as ProviderName].telemetryName : provider;
