/**
 * §5: `base_url` is optional except for provider "openai-compatible", which has no default
 * host; and `api: "responses"` (the OpenAI Responses API) exists only for provider "openai".
 */
import type { CheckContext } from "../context";
import { messages } from "../messages";

export function modelBaseUrl(ctx: CheckContext): void {
  for (const model of ctx.program.decls) {
    if (model.kind !== "Model") continue;
    const provider = ctx.entry(model.entries, "provider")?.value;
    const isCompatible = provider?.kind === "Lit" && provider.value === "openai-compatible";
    if (isCompatible && !ctx.entry(model.entries, "base_url")) ctx.report(messages.baseUrlRequired(model.name), model.nameSpan);
    const api = ctx.entry(model.entries, "api")?.value;
    if (api?.kind === "Lit" && api.value === "responses" && provider?.kind === "Lit" && provider.value !== "openai") {
      ctx.report(messages.responsesApiProvider(model.name, String(provider.value)), api.span);
    }
  }
}
