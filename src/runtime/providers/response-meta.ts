/**
 * What a provider's answer says about itself, beside its content: the response id, the model
 * that actually answered (a dated snapshot behind an alias, the model behind an Azure
 * deployment) and the provider's own finish reason (`end_turn`, `STOP`, …, where `TurnResult
 * .finish` is Luma's normalised one). Read by each adapter's `parseResponse`, carried by the
 * `provider.request` trace event and its `chat` span (`gen_ai.response.*`). A value the body
 * does not carry as a non-empty string stays undefined.
 */
import type { ResponseMeta } from "./provider-types";

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

export function responseMeta(id: unknown, model: unknown, finishReason: unknown): ResponseMeta {
  return { id: text(id), model: text(model), finishReason: text(finishReason) };
}
