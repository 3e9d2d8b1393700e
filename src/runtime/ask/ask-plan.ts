/**
 * Everything about one `ask` site that does not change between calls, prepared on its first
 * call and cached: the agent's settings, the resolved model and its adapter, the tool
 * declarations and the final format in the provider's wire form, the target.
 *
 * A tool's declaration for the model is its `__tool_<name>_input` JSON Schema (annotations
 * included, spec §4) and its `description` option. Queries and commands listed in `tools`
 * are declared the same way: the schema table answers their parameters under their name.
 * Lazy tools (`lazy: true`) are left out of the first request's declarations: `lazy` holds
 * them for the discovery of each ask (tool-discovery.ts), and `tools` then declares the eager
 * ones and `search_tools`.
 */
import type { ModelDecl, Program, QueryDecl, ToolDecl } from "../../syntax/ast";
import { toJsonSchema } from "../../schema/json-schema";
import type { SchemaTable } from "../../schema/schema-table-types";
import { typeText } from "../../schema/type-text";
import { adapterFor } from "../providers/adapter-table";
import type { JsonSchema, PreparedFormat, PreparedTools, ProviderAdapter, ResolvedModel, ToolSpec } from "../providers/provider-types";
import { resolveModel } from "../providers/resolve-model";
import { readStatementEntries } from "../datasources/statement-entries";
import { readToolOptions } from "../tools/steps/tool-options";
import { askSettingsOf, type AgentSettings } from "../tools/steps/agent-ask-settings";
import { askErrors } from "./ask-errors";
import { buildAskTarget, type AskTarget } from "./ask-target";
import { initialTools, lazyCatalog, type LazyCatalog } from "./tool-discovery";
import type { AskRequest } from "./ask-types";

export interface PlanEnv {
  program: Program;
  schemas: SchemaTable;
  env: Record<string, string | undefined>;
  replay: boolean;
  /** A durable run: a missing key or endpoint waits for a request the journal does not answer. */
  journaled: boolean;
}

export interface AskPlan {
  settings: AgentSettings;
  model: ResolvedModel;
  adapter: ProviderAdapter;
  tools?: PreparedTools;
  /** The site's lazy tools, when it has any (tool-discovery.ts). */
  lazy?: LazyCatalog;
  specs: ReadonlyMap<string, ToolSpec>;
  format: PreparedFormat;
  target: AskTarget;
  forced?: string;
  traceBase: { agent: string; model: string; provider: string; target: string };
}

export function buildAskPlan(penv: PlanEnv, req: AskRequest): AskPlan {
  const settings = askSettingsOf(req.agent);
  const modelDecl = penv.program.decls.find((d): d is ModelDecl => d.kind === "Model" && d.name === settings.model);
  if (!modelDecl) throw askErrors.noModel(req.agent.name, req.location);
  const model = resolveModel(modelDecl, penv.env, { replay: penv.replay, journaled: penv.journaled });
  const adapter = adapterFor(model);

  const specs = new Map<string, ToolSpec>();
  const lazyNames = new Set<string>();
  for (const name of settings.tools) {
    const decl = penv.program.decls.find(
      (d): d is ToolDecl | QueryDecl => d.name === name && (d.kind === "Tool" || d.kind === "Query" || d.kind === "Command"),
    );
    if (decl) specs.set(name, toolSpec(penv.schemas, decl));
    if (decl?.kind === "Tool" && readToolOptions(decl).lazy) lazyNames.add(name);
  }
  const target = buildAskTarget(penv.schemas, req.target);
  const lazy = lazyCatalog(adapter, [...specs.values()], (name) => lazyNames.has(name), req.usingTool);
  return {
    settings,
    model,
    adapter,
    tools: lazy !== undefined ? initialTools(lazy) : specs.size > 0 ? adapter.prepareTools([...specs.values()]) : undefined,
    lazy,
    specs,
    format: adapter.prepareFormat(target.format),
    target,
    forced: req.usingTool,
    traceBase: { agent: req.agent.name, model: model.decl, provider: model.provider, target: typeText(req.target) },
  };
}

function toolSpec(schemas: SchemaTable, decl: ToolDecl | QueryDecl): ToolSpec {
  const spec: ToolSpec = { name: decl.name, parameters: toJsonSchema(schemas.toolInput(decl.name)) as JsonSchema };
  const text = decl.kind === "Tool" ? readToolOptions(decl).description : readStatementEntries(decl).description;
  if (text !== undefined) spec.description = text;
  return spec;
}
