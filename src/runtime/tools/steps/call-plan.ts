/**
 * A tool as one caller sees it: the tool plan combined with the calling agent's policy
 * (or the top-level policy). Everything that can be decided before the call is decided
 * here — effective timeout, scope and deny_write verdicts, approval need, allowed
 * contexts — and the step chain is built from only the steps that apply.
 */
import type { AgentPolicy } from "./agent-policy";
import type { CallContext } from "./call-context";
import type { ToolPlan } from "./tool-plan";
import { toolErrors } from "./tool-errors";

export interface CallPlan {
  tool: ToolPlan;
  agent: AgentPolicy;
  /** min(tool.timeout ?? agent.tool_timeout, agent.tool_timeout_max). */
  timeoutMs: number;
  scopeDenied: boolean;
  writeDenied: boolean;
  /** A write tool under tool_policy approval, or a tool with `approval: true`, that LUMA_APPROVED_TOOLS does not list; a tool with `approval: Schema`. */
  needsApproval: boolean;
  /** The first `needs` name the agent's tool_contexts does not allow. */
  deniedContext?: string;
  timeoutError(): Error;
  /** The composed chain of applicable steps; set by the pipeline. */
  run: (ctx: CallContext) => unknown;
}

export const buildCallPlan = (tool: ToolPlan, agent: AgentPolicy, approvedTools: ReadonlySet<string>): CallPlan => {
  const o = tool.options;
  const timeoutMs = Math.min(o.timeout ?? agent.toolTimeout, agent.toolTimeoutMax ?? Infinity);
  const isWrite = o.sideEffects === "write";
  // `approval: true` asks on every call, top level included; LUMA_APPROVED_TOOLS pre-approves
  // it as it does a write under tool_policy — but not `approval: Schema`, whose note no list can give.
  const byPolicy = isWrite && agent.toolPolicy === "approval";
  const needsApproval = typeof o.approval === "string" || ((byPolicy || o.approval === true) && !approvedTools.has(tool.name));
  return {
    tool,
    agent,
    timeoutMs,
    scopeDenied: agent.toolScopes !== undefined && o.scope !== undefined && !agent.toolScopes.has(o.scope),
    writeDenied: isWrite && agent.toolPolicy === "deny_write",
    needsApproval,
    deniedContext: agent.toolContexts && tool.needs.find((n) => !agent.toolContexts!.has(n.name))?.name,
    timeoutError: () => tool.statement?.timeoutError(timeoutMs) ?? toolErrors.timeout(tool.name, timeoutMs),
    run: () => undefined,
  };
};
