/**
 * A start-up check (spec §7, recursive schemas): every `ask … -> T` whose type uses a
 * recursive schema must go to a provider whose structured output takes one. OpenAI strict
 * mode and Gemini do (`$defs`/`$ref`); Anthropic's does not (wire notes §3.4) — sending
 * it anyway would fail at the provider on the first call, after side effects may have
 * happened. So the program is rejected before it runs, naming the schema, the provider,
 * the model and the ask. Which provider an agent asks is static (its `model:` names a
 * declaration whose `provider:` is a literal), so nothing here depends on the run.
 *
 * Tools are not checked for recursion: a recursive tool input goes to Anthropic as a
 * non-strict tool (providers/anthropic/anthropic-messages.ts) and is validated locally like every input.
 *
 * The same walk asks each adapter whether its strict mode can take the schemas at all
 * (`formatProblem` for an ask's answer, `toolSchemaProblem` for each tool the agent lists,
 * but a tool with `audience: "code"`, which is never sent):
 * OpenAI's documented size limits, Anthropic's `any` and per-request budgets. Such a schema
 * would be a 400 on every request, so the program is rejected now, naming the schema or
 * tool and what is over (catalog E0615).
 */
import type { AgentDecl, Expr, ModelDecl, Program, Span } from "../../syntax/ast";
import { AGENT_KEYS } from "../../language/keys/agent-keys";
import { entryOf } from "../../language/keys/key-spec";
import { forEachExpr } from "../../language/walk";
import { error } from "../../diagnostics/diagnostic";
import { startupError } from "../../diagnostics/luma-error";
import type { SchemaTable } from "../../schema/schema-table-types";
import { typeText } from "../../schema/type-text";
import { adapterFor } from "../providers/adapter-table";
import { PROVIDER_FAMILIES } from "../providers/families";
import type { ProviderName } from "../providers/provider-types";
import { modelAdapterRef, modelProvider } from "../providers/resolve-model";
import { askSettingsOf } from "../tools/steps/agent-ask-settings";
import { readToolOptions } from "../tools/steps/tool-options";
import { buildAskTarget } from "./ask-target";
import { toJsonSchema } from "../../schema/json-schema";
import type { JsonSchema } from "../providers/provider-types";

/** Catalog code of a schema a provider's strict mode cannot take (startup-codes.ts). */
const SCHEMA_LIMIT_CODE = "E0615";
/** Catalog code of a recursive `ask` answer on a provider whose structured output takes no `$ref`. */
const RECURSIVE_FORMAT_CODE = "E0617";

export function checkAskFormats(program: Program, schemas: SchemaTable): void {
  const models = new Map(program.decls.filter((d): d is ModelDecl => d.kind === "Model").map((d) => [d.name, d]));
  for (const agent of program.decls.filter((d): d is AgentDecl => d.kind === "Agent")) {
    const model = models.get(askSettingsOf(agent).model ?? "");
    // No model, or an unknown provider: the ask itself reports it, as before.
    const provider = model && modelProvider(model);
    if (!provider || !Object.hasOwn(PROVIDER_FAMILIES, provider)) continue;
    checkStrictSchemas(program, agent, model!, provider, schemas);
    if (adapterFor(provider).recursiveFormat) continue;
    for (const method of agent.methods) {
      forEachExpr(method.body, (e) => {
        if (e.kind !== "Ask") return;
        const recursive = Object.keys(schemas.typeOf(e.target).$defs ?? {});
        if (recursive.length === 0) return;
        const able = (Object.keys(PROVIDER_FAMILIES) as ProviderName[]).filter((p) => PROVIDER_FAMILIES[p].strictSchema.recursiveFormat);
        const message =
          `Schema '${recursive[0]}' is recursive, and provider '${provider}' (model '${model!.name}') cannot take a recursive ` +
          `schema as structured output: agent '${agent.name}' asks for ${typeText(e.target)}. ` +
          `Use a model of a provider that can (${able.join(", ")}), or a schema that does not refer to itself.`;
        throw startupError(message, { catalogCode: RECURSIVE_FORMAT_CODE, diagnostics: [error(message, e.span, { code: RECURSIVE_FORMAT_CODE })] });
      });
    }
  }
}

/** Each tool the agent lists and each answer it asks for, as its provider's strict mode would get them. */
function checkStrictSchemas(program: Program, agent: AgentDecl, model: ModelDecl, provider: ProviderName, schemas: SchemaTable): void {
  // The adapter the requests will use (`api: "responses"` included) judges the schemas.
  const adapter = adapterFor(modelAdapterRef(model));
  const where = `provider '${provider}' (model '${model.name}')`;
  const reject = (what: string, problem: string, span: Span): never => {
    const message = `${what} cannot be sent to ${where} in strict mode: ${problem}. Make it smaller or simpler; Luma validates the full schema locally either way.`;
    throw startupError(message, { catalogCode: SCHEMA_LIMIT_CODE, diagnostics: [error(message, span, { code: SCHEMA_LIMIT_CODE })] });
  };
  if (adapter.toolSchemaProblem) {
    const toolsEntry = entryOf(AGENT_KEYS, agent.entries, "tools");
    const codeOnly = new Set(program.decls.filter((d) => d.kind === "Tool" && readToolOptions(d).audience === "code").map((d) => d.name));
    for (const name of askSettingsOf(agent).tools) {
      if (codeOnly.has(name)) continue;
      let schema: JsonSchema;
      try {
        schema = toJsonSchema(schemas.toolInput(name)) as JsonSchema;
      } catch {
        continue; // not a declared tool: the ask reports it, as before
      }
      const problem = adapter.toolSchemaProblem(schema);
      if (problem) reject(`The input of tool '${name}' (agent '${agent.name}')`, problem, toolsEntry?.span ?? agent.nameSpan);
    }
  }
  const formatProblem = adapter.formatProblem;
  if (!formatProblem) return;
  for (const method of agent.methods) {
    forEachExpr(method.body, (e: Expr) => {
      if (e.kind !== "Ask") return;
      const problem = formatProblem(buildAskTarget(schemas, e.target).format.schema);
      if (problem) reject(`Schema '${typeText(e.target)}' (agent '${agent.name}' asks for it)`, problem, e.span);
    });
  }
}
