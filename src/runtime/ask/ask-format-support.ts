/**
 * A start-up check (spec §7, recursive schemas): every `ask … -> T` whose type uses a
 * recursive schema must go to a provider whose structured output takes one. OpenAI strict
 * mode and Gemini do (`$defs`/`$ref`); Anthropic's does not (PROVIDERS.md §3.4) — sending
 * it anyway would fail at the provider on the first call, after side effects may have
 * happened. So the program is rejected before it runs, naming the schema, the provider,
 * the model and the ask. Which provider an agent asks is static (its `model:` names a
 * declaration whose `provider:` is a literal), so nothing here depends on the run.
 *
 * Tools are not checked: a recursive tool input goes to Anthropic as a non-strict tool
 * (anthropic.ts) and is validated locally like every input.
 */
import type { AgentDecl, ModelDecl, Program } from "../../syntax/ast";
import { forEachExpr } from "../../check/walk";
import { error } from "../../diagnostics/diagnostic";
import { startupError } from "../../diagnostics/luma-error";
import type { SchemaTable } from "../../schema/schema-table-types";
import { typeText } from "../../schema/type-text";
import { ADAPTERS, adapterFor } from "../providers/adapter-table";
import type { ProviderName } from "../providers/provider-types";
import { modelProvider } from "../providers/resolve-model";
import { askSettingsOf } from "./agent-ask-settings";

export function checkAskFormats(program: Program, schemas: SchemaTable): void {
  const models = new Map(program.decls.filter((d): d is ModelDecl => d.kind === "Model").map((d) => [d.name, d]));
  for (const agent of program.decls.filter((d): d is AgentDecl => d.kind === "Agent")) {
    const model = models.get(askSettingsOf(agent).model ?? "");
    // No model, or an unknown provider: the ask itself reports it, as before.
    const provider = model && modelProvider(model);
    if (!provider || !Object.hasOwn(ADAPTERS, provider) || adapterFor(provider).recursiveFormat) continue;
    for (const method of agent.methods) {
      forEachExpr(method.body, (e) => {
        if (e.kind !== "Ask") return;
        const recursive = Object.keys(schemas.typeOf(e.target).$defs ?? {});
        if (recursive.length === 0) return;
        const able = (Object.keys(ADAPTERS) as ProviderName[]).filter((p) => adapterFor(p).recursiveFormat);
        const message =
          `Schema '${recursive[0]}' is recursive, and provider '${provider}' (model '${model!.name}') cannot take a recursive ` +
          `schema as structured output: agent '${agent.name}' asks for ${typeText(e.target)}. ` +
          `Use a model of a provider that can (${able.join(", ")}), or a schema that does not refer to itself.`;
        throw startupError(message, { diagnostics: [error(message, e.span)] });
      });
    }
  }
}
