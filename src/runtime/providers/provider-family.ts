/**
 * What one provider family is, as one record: each folder `providers/<family>/` exports one
 * `ProviderFamily`, and `families.ts` lists them, one line each. Everything that differs
 * between families and is read outside its folder is a field here — the defaults a model
 * resolves with, the wire format(s) it speaks (adapter, usage reading, the scripted answers
 * of `luma test`), what its strict mode takes, and its OpenTelemetry name — so adding a family
 * touches that folder and that table, nothing else.
 */
import type { ProviderName } from "../../language/provider-families";
import type { StrictSchemaSubset, WireAdapter } from "./provider-types";
import type { UsageReader } from "./read-usage";
import type { ScriptedWire } from "./scripted-wire";

/** Per-family defaults a `model` declaration resolves with (resolve-model.ts, spec §5). */
export interface ProviderDefaults {
  /** Variable read when the model has no `api_key_env`; none = the key is optional. */
  keyEnv?: string;
  /** Where requests go when the model names no `base_url` (none = the program must say). */
  baseUrl?: string;
  /** The output-token cap sent when the model sets no `max_tokens`, for an API that requires one (Anthropic). Telemetry shows it as sent. */
  maxTokens?: number;
}

/** One HTTP API a family speaks. */
export interface WireFormat {
  /** Builds the request and reads the response (stateless: made once, adapter-table.ts). */
  createAdapter(): WireAdapter;
  /** Its responses' token counts → Luma's `Usage` (the adapter reads usage with it). */
  readUsage: UsageReader;
  /** A `luma test` mock's turn as a response body of this format (testing/scripted-model.ts). */
  scripted: ScriptedWire;
}

export interface ProviderFamily {
  /** The `provider:` value (language/provider-families.ts) this record answers for. */
  name: ProviderName;
  defaults: ProviderDefaults;
  /** The API a model of this family speaks. */
  wire: WireFormat;
  /** OpenAI only: the Responses API, which the model key `api: "responses"` picks. */
  responsesWire?: WireFormat;
  /** What its strict structured output and strict tools take (checked at start-up). */
  strictSchema: StrictSchemaSubset;
  /** `gen_ai.provider.name` of its spans (OpenTelemetry GenAI conventions; telemetry/otel). */
  telemetryName: string;
}
