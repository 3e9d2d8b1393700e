/**
 * The tool call pipeline (spec §9): every tool call, direct or native, runs through the
 * ordered list of steps below, one module each under `steps/`.
 *
 * Plans do the work ahead of the call. Each declared tool's options are parsed once, when
 * the invoker is created; the first call from a given agent (or from top level) builds a
 * plan for that pair — effective timeout, policy verdicts — and composes a chain of only
 * the steps that apply to it. A call is then: find the plan, make a context, run its chain.
 *
 * @example
 *   const invoker = createToolInvoker({ program, schemas, registry, config, env: process.env, warn });
 *   const out = await invoker.call({ tool: "calculate", input: { a: 1, b: 2, operation: "add" }, mode: "direct" });
 */
import type { AgentDecl, Program, ToolDecl } from "../../syntax/ast";
import type { SchemaTable } from "../../schema/schema-table-types";
import { systemClock, type Clock } from "../base/clock";
import { MemoryIdempotencyStore } from "../stores/memory-idempotency-store";
import type { IdempotencyStore } from "../stores/idempotency-store";
import type { AskValue, ProgressSink, ToolCallRequest, ToolInvoker } from "./tool-invoker-types";
import { readAgentPolicy, TOP_LEVEL_POLICY, type AgentPolicy } from "./steps/agent-policy";
import { CallContext } from "./steps/call-context";
import { buildCallPlan, type CallPlan } from "./steps/call-plan";
import { DeadlineScheduler } from "./steps/deadline-scheduler";
import type { Next, PipelineRuntime, Step, StepFactory, ToolContextsConfig, ToolHandler } from "./steps/step";
import { buildToolPlan, undeclaredToolPlan, type ToolPlan } from "./steps/tool-plan";
import { registryLookup } from "./steps/01-registry-lookup";
import { credentialCheck } from "./steps/02-credential";
import { scopeAllowlist } from "./steps/03-scope-allowlist";
import { denyWrite } from "./steps/04-deny-write";
import { approval } from "./steps/05-approval";
import { inputValidation } from "./steps/06-input-validation";
import { needsResolution } from "./steps/07-needs-resolution";
import { cacheSingleFlight } from "./steps/08-cache-single-flight";
import { idempotency } from "./steps/09-idempotency";
import { runHandler } from "./steps/10-run-handler";
import { clientAnswer } from "./steps/client-answer";
import { outputValidation } from "./steps/11-output-validation";
import { telemetryBreaker } from "./steps/12-telemetry-breaker";
import { journalBegin, journalReplay } from "./steps/journal-steps";
import { toolErrors } from "./steps/tool-errors";
import type { RunJournal } from "../journal/run-journal";

export { checkToolRuntimeRules } from "./steps/startup-rules";
export type { ToolContextsConfig, ToolHandler } from "./steps/step";

/**
 * Spec §9, in order. Step 12 is marked outermost: it wraps the others to see every outcome.
 * The journal's two steps (durable runs, journal-steps.ts) apply only with a journal: replay
 * first inside step 12, begin just before the handler runs.
 */
export const PIPELINE_STEPS: readonly StepFactory[] = [
  journalReplay,
  registryLookup,
  credentialCheck,
  scopeAllowlist,
  denyWrite,
  approval,
  inputValidation,
  needsResolution,
  cacheSingleFlight,
  idempotency,
  clientAnswer,
  journalBegin,
  runHandler,
  outputValidation,
  telemetryBreaker,
];

export interface ToolInvokerDeps {
  program: Program;
  schemas: SchemaTable;
  registry: { handler(name: string): ToolHandler | undefined };
  config: { tool_contexts?: ToolContextsConfig };
  env: Record<string, string | undefined>;
  clock?: Clock;
  trace?: (event: object) => void;
  /** Receives whole lines, e.g. `warning: Answer.score must be <= 10 (@range).` */
  warn: (line: string) => void;
  /** Asks the user to approve a write tool (the CLI's TTY prompt); absent = not interactive. */
  approve?: (tool: string, args: string, withinMs?: number, writes?: boolean, callId?: string) => Promise<boolean>;
  /** Asks the user for a value (the CLI's TTY prompt): a client tool's answer, an approval's note; absent = not interactive. */
  askValue?: AskValue;
  /** Defaults to a process-local memory store. */
  idempotencyStore?: IdempotencyStore;
  /**
   * Queries and commands (spec §12) as tool plans with their handler bound
   * (`runtime/datasources`): called by name like tools — directly or by a model — they go
   * through the same steps (a query is a read, a command a write).
   */
  statements?: readonly ToolPlan[];
  /** The run's journal (durable runs): every call with a step id is replayed or recorded. */
  journal?: RunJournal;
}

/** Without a journal a run still has an id for handlers' `ctx` (made on first use, this process only). */
let ownRunId: string | undefined;
const processRunId = (): string => (ownRunId ??= `p-${crypto.randomUUID()}`);

const parseList = (v: string | undefined): Set<string> =>
  new Set((v ?? "").split(",").map((s) => s.trim()).filter((s) => s !== ""));

const progressOf = (ctx: CallContext): ProgressSink | undefined => ctx.req.progress ?? ctx.req.methodCall?.progress;

/** Chains the steps, in order; `reports`: the call's progress sink hears of each step as it starts. */
const chain = (ordered: readonly Step[], reports: boolean): Next => {
  let next: Next = (ctx) => ctx.output;
  const total = ordered.length;
  for (let i = ordered.length - 1; i >= 0; i--) {
    const step = ordered[i];
    const inner = next;
    next = !reports
      ? (ctx) => step.run(ctx, inner)
      : (ctx) => {
          progressOf(ctx)!(step.name, i + 1, total);
          return step.run(ctx, inner);
        };
  }
  return next;
};

/**
 * Chains the steps that apply to `plan`, in list order, inside the outermost ones. A caller
 * that asked for progress (an MCP progress token) runs a second chain that reports each step,
 * made on its first such call: every other call runs the plain chain, with nothing per step.
 */
const compose = (steps: readonly Step[], plan: CallPlan): Next => {
  const applicable = steps.filter((s) => s.applies(plan));
  const ordered = [...applicable.filter((s) => s.outermost), ...applicable.filter((s) => !s.outermost)];
  const plain = chain(ordered, false);
  let reporting: Next | undefined;
  return (ctx) => (progressOf(ctx) === undefined ? plain(ctx) : (reporting ??= chain(ordered, true))(ctx));
};

/** The invoker as the run's owner sees it: it can also stop every call in flight. */
export interface RunToolInvoker extends ToolInvoker {
  /**
   * The run is ending with `reason`: every call in flight is aborted with it (their handlers'
   * signals fire; once a handler settled, or after `settleMs`, step 12 releases its claim),
   * and every later call fails with it at once. Returns the names of the tools that were in flight.
   */
  stopAll(reason: Error, settleMs: number): string[];
  /** The names of the tools whose calls are in flight (waiting on a handler or a backoff). */
  inFlight(): string[];
}

const toolName = (owner: unknown) => (owner as CallContext).plan.tool.name;

export const createToolInvoker = (deps: ToolInvokerDeps): RunToolInvoker => {
  const clock = deps.clock ?? systemClock;
  const store = deps.idempotencyStore ?? new MemoryIdempotencyStore(clock);
  const rt: PipelineRuntime = {
    program: deps.program,
    schemas: deps.schemas,
    registry: deps.registry,
    toolContexts: deps.config.tool_contexts ?? {},
    env: deps.env,
    clock,
    trace: deps.trace,
    warn: deps.warn,
    approve: deps.approve,
    askValue: deps.askValue,
    approvedTools: parseList(deps.env.LUMA_APPROVED_TOOLS),
    idempotency: store,
    ownMemoryStore: deps.idempotencyStore === undefined,
    heartbeats: !(store instanceof MemoryIdempotencyStore),
    timedOutClaims: new Map(),
    deadlines: new DeadlineScheduler(clock),
    // Read at each step: under `luma serve`/`mcp`/`chat` it is the journal run of the call being made (call-runs.ts).
    get journal() {
      return deps.journal;
    },
    runId: () => deps.journal?.runId ?? processRunId(),
  };
  const steps = PIPELINE_STEPS.map((make) => make(rt));

  const toolPlans = new Map<string, ToolPlan>();
  for (const d of deps.program.decls) if (d.kind === "Tool") toolPlans.set(d.name, buildToolPlan(deps.program, d as ToolDecl));
  for (const plan of deps.statements ?? []) toolPlans.set(plan.name, plan);

  const makePlan = (tool: ToolPlan, policy: AgentPolicy): CallPlan => {
    const plan = buildCallPlan(tool, policy, rt.approvedTools);
    plan.run = compose(steps, plan);
    return plan;
  };

  const topLevel = new Map<string, CallPlan>();
  const perAgent = new WeakMap<AgentDecl, { policy: AgentPolicy; plans: Map<string, CallPlan> }>();

  // The last plan found: a loop calling one tool from one agent skips both lookups.
  let lastTool: string | undefined;
  let lastAgent: AgentDecl | undefined;
  let lastPlan: CallPlan | undefined;

  const planFor = (tool: string, agent: AgentDecl | undefined): CallPlan => {
    if (tool === lastTool && agent === lastAgent) return lastPlan!;
    let plans = topLevel;
    let policy = TOP_LEVEL_POLICY;
    if (agent !== undefined) {
      let entry = perAgent.get(agent);
      if (entry === undefined) perAgent.set(agent, (entry = { policy: readAgentPolicy(agent), plans: new Map() }));
      plans = entry.plans;
      policy = entry.policy;
    }
    let plan = plans.get(tool);
    if (plan === undefined) {
      const toolPlan = toolPlans.get(tool);
      // An undeclared name gets a throwaway plan: a model's invented names must not pile up.
      if (toolPlan === undefined) return makePlan(undeclaredToolPlan(tool), policy);
      plans.set(tool, (plan = makePlan(toolPlan, policy)));
    }
    lastTool = tool;
    lastAgent = agent;
    return (lastPlan = plan);
  };

  let stopped: Error | undefined;

  return {
    call(req: ToolCallRequest): Promise<unknown> {
      if (stopped !== undefined) return Promise.reject(stopped);
      try {
        const plan = planFor(req.tool, req.agent);
        // A caller's own grant (an MCP client's token) narrows the agent's tool_scopes, call by call.
        const granted = req.scopes ?? req.methodCall?.scopes;
        const scope = plan.tool.options.scope;
        if (granted !== undefined && scope !== undefined && !granted.includes(scope)) return Promise.reject(toolErrors.scopeDenied(plan.tool.name, scope));
        return Promise.resolve(plan.run(new CallContext(plan, req)));
      } catch (e) {
        return Promise.reject(e);
      }
    },
    stopAll(reason: Error, settleMs: number): string[] {
      stopped = reason;
      return rt.deadlines.stopAll(reason, settleMs).map(toolName);
    },
    inFlight: () => rt.deadlines.owners().map(toolName),
  };
};
