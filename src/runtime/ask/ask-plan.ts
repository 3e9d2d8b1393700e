/**
 * Everything about one `ask` site that does not change between calls, prepared on its first
 * call and cached: the agent's settings, the resolved model and its adapter, the tool
 * declarations and the final format in the provider's wire form, the target.
 *
 * A tool's declaration for the model is its `__tool_<name>_input` JSON Schema (annotations
 * included, spec §4) and its `description` option. Queries and commands listed in `tools`
 * are declared the same way: the schema table answers their parameters under their name.
 * Which of them an ask offers, and the system prompt that goes with them, is decided at each
 * ask (`tool-offer.ts`); the plan keeps the candidates and the offers already prepared. Lazy
 * tools (`lazy: true`) among those offered are left out of the first request's declarations:
 * each prepared offer holds them for the discovery of each ask (tool-discovery.ts).
 */
import type { ModelDecl, Program } from "../../syntax/ast";
import type { SchemaTable } from "../../schema/schema-table-types";
import { typeText } from "../../schema/type-text";
import { adapterFor } from "../providers/adapter-table";
import type { PreparedFormat, ProviderAdapter, ResolvedModel } from "../providers/provider-types";
import { resolveModel } from "../providers/resolve-model";
import { askSettingsOf, type AgentSettings } from "../tools/steps/agent-ask-settings";
import { askErrors } from "./ask-errors";
import { buildAskTarget, type AskTarget } from "./ask-target";
import { toolCandidates, type OfferSource } from "./tool-offer";
import { handoffCandidates } from "./handoffs";
import { agentToolArgumentsOf } from "../../language/agent-context";
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
  /** The tools a model may be offered, for `offerTools` at each ask. */
  offers: OfferSource;
  format: PreparedFormat;
  /** `stream ask … -> string`: the answer is the model's text as written, asked with no response format. */
  plainText: boolean;
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

  // The transfers of the agent's `handoffs` (issue #27 §2) come after its own tools.
  const agentArgs = new Map(agentToolArgumentsOf(req.agent).map((a) => [a.tool, a.args]));
  const candidates = [...toolCandidates(penv.program, penv.schemas, settings.tools, agentArgs), ...handoffCandidates(penv.program, settings.handoffs)];
  const target = buildAskTarget(penv.schemas, req.target);
  return {
    settings,
    model,
    adapter,
    offers: { candidates, system: settings.system, adapter, forced: req.usingTool, prepared: new Map() },
    format: adapter.prepareFormat(target.format),
    plainText: req.onText !== undefined,
    target,
    forced: req.usingTool,
    traceBase: { agent: req.agent.name, model: model.decl, provider: model.provider, target: typeText(req.target) },
  };
}
