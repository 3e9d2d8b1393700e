/**
 * `createAskRunner`: what `start-program.ts` hands the interpreter for `ask`. It owns the
 * provider client (transport, retry sleep, trace) and the per-site plan cache, and emits one
 * `ask` trace event per ask.
 *
 * Transport: Bun's fetch by default; `--record FILE` wraps it to save every exchange;
 * `--replay FILE` replaces it with the cassette (no network, no key needed, no waiting).
 * With a journal, a missing key is reported only when a request the journal does not
 * answer is about to be sent (resolve-model.ts): resuming a finished run needs no key.
 *
 * @example
 *   const runner = createAskRunner({ program, schemas, tools, env: process.env, warn: console.error });
 *   const value = await runner.ask({ agent, methodCall: { failures: 0 }, prompt: "…", target, site, location });
 */
import type { AgentDecl, Program } from "../../syntax/ast";
import { isLumaError, runtimeError } from "../../diagnostics/luma-error";
import type { SchemaTable } from "../../schema/schema-table-types";
import type { ToolInvoker } from "../tools/tool-invoker-types";
import { loadCassette, recordingTransport, replayTransport, type CassetteSource } from "../providers/cassette";
import type { ProviderClient } from "../providers/provider-client";
import { fetchTransport, type Transport } from "../providers/transport";
import { buildAskPlan, type AskPlan } from "./ask-plan";
import { runAskFlow, type FlowEnv, type HandOff } from "./ask-flow";
import { locatedAt } from "./ask-errors";
import { askEvent, newStats } from "./ask-trace";
import { offerTools, withheldEvent } from "./tool-offer";
import { toolErrors } from "../tools/steps/tool-errors";
import { softValidationEvent, softWarningLine } from "../base/soft-issue-report";
import type { AskRequest, AskRunner } from "./ask-types";
import type { RunJournal } from "../journal/run-journal";
import type { UsageLedger } from "../usage/usage-ledger";

export interface AskRunnerDeps {
  program: Program;
  schemas: SchemaTable;
  tools: ToolInvoker;
  env: Record<string, string | undefined>;
  /** Whole lines (`warning: …`). */
  warn: (line: string) => void;
  trace?: (event: object) => void;
  /** `--record FILE` (resolved path) and how to name it in messages. */
  record?: { path: string; label: string };
  /** `--replay FILE`, the config's `replay`, or a built agent's embedded cassette. */
  replay?: CassetteSource;
  /**
   * A transport that never touches the network (`luma test`: scripted models, cassettes):
   * like `replay`, no key is needed and retries do not wait.
   */
  offline?: Transport;
  /** Test and benchmark hooks. */
  transport?: Transport;
  sleep?: (ms: number) => Promise<void>;
  maxResponseBytes?: number;
  /** The run's journal (durable runs). */
  journal?: RunJournal;
  /** Run-wide token totals (`--usage`, the `run.usage` event): every ask adds its own. */
  usage?: UsageLedger;
}

export function createAskRunner(deps: AskRunnerDeps): AskRunner {
  const replaying = deps.replay !== undefined || deps.offline !== undefined;
  let transport: Transport;
  if (deps.offline) transport = deps.offline;
  else if (deps.replay) transport = replayTransport(loadCassette(deps.replay), deps.replay.label);
  else transport = deps.transport ?? fetchTransport({ maxResponseBytes: deps.maxResponseBytes });
  if (deps.record && !replaying) transport = recordingTransport(transport, deps.record.path, deps.record.label);

  const client: ProviderClient = {
    transport,
    sleep: deps.sleep ?? (replaying ? () => Promise.resolve() : (ms) => Bun.sleep(ms)),
    trace: deps.trace,
    now: () => performance.now(),
  };
  const flowEnv: FlowEnv = {
    client,
    schemas: deps.schemas,
    tools: deps.tools,
    // Read at each request: under `luma serve`/`mcp`/`chat` it is the journal run of the call being made (call-runs.ts).
    get journal() {
      return deps.journal;
    },
    onSoft: (issue, req) => {
      deps.warn(softWarningLine(issue, req.location));
      deps.trace?.(softValidationEvent({ tool: null, agent: req.agent.name }, issue));
    },
  };
  const plans = new WeakMap<object, AskPlan>();
  // The plans of agents an ask site was handed to (issue #27 §2), by agent name.
  const handedPlans = new WeakMap<object, Map<string, { agent: AgentDecl; plan: AskPlan }>>();
  const handOffFor = (req: AskRequest): HandOff => (to, allowance) => {
    let byAgent = handedPlans.get(req.site);
    if (!byAgent) handedPlans.set(req.site, (byAgent = new Map()));
    let handed = byAgent.get(to);
    if (!handed) {
      const agent = deps.program.decls.find((d): d is AgentDecl => d.kind === "Agent" && d.name === to);
      if (!agent) throw runtimeError("RUNTIME_ERROR", `internal: no agent ${to} to hand the ask to`);
      // The target's own model, system and tools; the ask's target type and streaming; never the site's `using tool`.
      try {
        handed = { agent, plan: buildAskPlan(penv, { ...req, agent, usingTool: undefined, context: undefined }) };
      } catch (e) {
        throw isLumaError(e) && e.code === "PROVIDER_ERROR" ? locatedAt(e, req.location) : e;
      }
      byAgent.set(to, handed);
    }
    const offer = offerTools(handed.plan.offers, deps.env, undefined, allowance);
    for (const w of offer.withheld) deps.trace?.(withheldEvent(to, w));
    return { agent: handed.agent, plan: handed.plan, offer };
  };
  const penv = { program: deps.program, schemas: deps.schemas, env: deps.env, replay: replaying, journaled: deps.journal !== undefined };

  return {
    async ask(req: AskRequest): Promise<unknown> {
      let plan = plans.get(req.site);
      if (!plan) {
        try {
          plan = buildAskPlan(penv, req);
        } catch (e) {
          // A missing key or endpoint (journaled runs: at the first request sent, ask-flow.ts): say which ask needed it.
          throw isLumaError(e) && e.code === "PROVIDER_ERROR" ? locatedAt(e, req.location) : e;
        }
        plans.set(req.site, plan);
      }
      // Which tools this ask offers (credentials are read at each ask); each withheld one is traced once.
      const maxHandoffs = plan.settings.maxHandoffs;
      const offer = offerTools(plan.offers, deps.env, req.context?.inactive, { left: maxHandoffs, limit: maxHandoffs });
      for (const w of offer.withheld) deps.trace?.(withheldEvent(req.agent.name, w));
      // `using tool x` with x withheld: the call it forces could only fail, with the pipeline's own (exact) message.
      const forcedAway = offer.withheld.find((w) => w.tool === plan.forced);
      if (forcedAway?.reason === "credential") throw toolErrors.missingCredential(forcedAway.tool, forcedAway.variable);
      if (forcedAway?.reason === "when") {
        const message = `Tool '${forcedAway.tool}' is not active for agent '${req.agent.name}': its condition '${forcedAway.condition}' is false (using tool)`;
        throw locatedAt(runtimeError("TOOL_NOT_ACTIVE", message), req.location);
      }
      const stats = newStats();
      const t0 = performance.now();
      const report = (error?: { code?: string }) => {
        deps.trace?.(askEvent(plan.traceBase, stats, performance.now() - t0, error));
        // Each acting agent's share under its own name and model; the ask counts once, for the agent where it started.
        stats.byAgent.forEach((share, i) => deps.usage?.add(share.agent, share.model, share, i === 0 ? 1 : 0));
      };
      let value: unknown;
      try {
        value = await runAskFlow(flowEnv, plan, offer, req, stats, handOffFor(req));
      } catch (e) {
        // An ask that sent nothing (its first request lacked the key) failed as a plan does: no event, no usage.
        if (stats.turns > 0) report(e as { code?: string });
        throw e;
      }
      report();
      return value;
    },
  };
}
