/**
 * Agents as tools, the interpreter's side (issue #27 §1, docs/language/multi-agent.md): when
 * a model calls `Refunds_handle` (an agent listing `Refunds.handle` in its `tools`), the ask
 * hands the validated arguments here (`AskRequest.callAgent`, ask/agent-tools.ts) and the
 * method runs as if called from code: a new agent method call (its own breaker count, its
 * agent's model, tools, policies, retries and timeouts), under the outer method call's
 * cancellation and MCP asker (so an approval inside surfaces where a direct one would).
 *
 * Depth: the outermost agent method call is depth 1; each agent called as a tool runs one
 * deeper, and the call that would pass the config's `max_agent_depth` (default 4) fails with
 * a non-retryable AGENT_DEPTH_EXCEEDED, which ends the outer `ask` (catchable with `try`).
 *
 * Steps: in a journaled run the sub-agent's steps are numbered under the native call's own
 * step id (`…/1.req1.call1/Refunds.handle#1/1`), so a resume finds each finished step of the
 * sub-agent again (its provider requests, its tool calls) and re-runs none of them.
 */
import { runtimeError } from "../../diagnostics/luma-error";
import { agentToolName } from "../../language/model-tool-names";
import type { AgentToolCaller } from "../ask/agent-tools";
import { StepScope } from "../journal/step-scope";
import { callAgentMethodIn, innerMethodCall } from "./calls";
import { budgetsFor } from "../usage/budgets";
import { askSettingsOf } from "../tools/steps/agent-ask-settings";
import { createFrame, type Frame, type Runtime } from "./runtime-context";
import { topLevelScope } from "../journal/step-scope";
import type { MethodCallState } from "../tools/tool-invoker-types";
import type { Value } from "./values";
import type { AgentDecl, Expr } from "../../syntax/ast";
import { evalSync } from "./eval-sync";
import { bindAgentArgs } from "./agent-context";

export const DEFAULT_MAX_AGENT_DEPTH = 4;

/**
 * `Refunds(user).handle`: the agent's arguments, read from the listing agent's parameters at
 * this call (the checker let them read nothing else), bound and validated as `Refunds(u)` in
 * code would be.
 */
function agentArgsOf(f: Frame, target: AgentDecl, args: readonly Expr[]): Map<string, Value> {
  const frame = createFrame(f.rt, [], f.scope, f.agent, f.methodCall, f.agentArgs);
  const values = args.map((a) => evalSync(a, frame));
  const at = args.map((a) => a.span);
  return bindAgentArgs(f.rt, target, values, at, at[0] ?? target.nameSpan);
}

/** The runner of agent tools for the `ask`s of frame `f` (an agent's method). */
export function agentToolCaller(f: Frame): AgentToolCaller {
  return (target, args, stepId, callId) => {
    const rt = f.rt;
    const agent = rt.agents.get(target.agent);
    const method = agent?.methods.get(target.method);
    if (!agent || !method) return Promise.reject(runtimeError("RUNTIME_ERROR", `internal: no method ${target.agent}.${target.method}`));
    const depth = (f.methodCall?.agentDepth ?? 1) + 1;
    const limit = rt.host.maxAgentDepth ?? DEFAULT_MAX_AGENT_DEPTH;
    if (depth > limit) {
      const message = `Calling agent method '${target.agent}.${target.method}' as a tool would run at agent depth ${depth}, deeper than max_agent_depth ${limit}`;
      return Promise.reject(runtimeError("AGENT_DEPTH_EXCEEDED", message, { retryable: false }));
    }
    const positional = target.params.map((p) => (args[p] ?? null) as Value);
    // Numbered under the native call's step id (journaled runs), else a scope of its own.
    const scope = new StepScope(undefined, stepId ?? `${f.scope.pathText()}/agent-tool`, 0);
    const caller = createFrame(rt, [], scope);
    const budgets = budgetsFor(target.agent, askSettingsOf(agent.decl), f.methodCall?.budgets);
    const methodCall = innerMethodCall(f.methodCall, { signal: f.methodCall?.signal, agentDepth: depth, budgets });
    // An approval inside is asked as for this call, the one the outer caller saw (a chat's
    // client knows `Refunds_handle`'s call, not the sub-agent's own calls).
    const approve = methodCall.approve;
    if (approve) methodCall.approve = (tool, args, withinMs, writes) => approve(tool, args, withinMs, writes, callId);
    let agentArgs: Map<string, Value> | undefined;
    try {
      agentArgs = target.agentArgs && agentArgsOf(f, agent.decl, target.agentArgs);
    } catch (e) {
      return Promise.reject(e);
    }
    const run = () => callAgentMethodIn(caller, agent, method, positional, methodCall, agentArgs);
    const telemetry = rt.host.telemetry;
    if (!telemetry) return run();
    // OpenTelemetry: execute_tool Refunds_handle (the model's call) → invoke_agent Refunds (the method call) → its own spans.
    const call = { tool: agentToolName(target.agent, target.method), callId, agent: f.agent?.decl.name };
    return telemetry.executeAgentTool(call, () => telemetry.invokeAgent(target.agent, target.method, run));
  };
}

/**
 * The runner of agent tools for an `ask` made in agent `name`'s name outside the program's
 * code — a chat of `luma chat` or `luma serve`: its tools run as they would for an `ask` in
 * one of its methods (the same depth, budgets, cancellation and approver as `methodCall`).
 */
export function agentToolCallerFor(rt: Runtime, name: string, methodCall: MethodCallState, agentArgs?: ReadonlyMap<string, Value>): AgentToolCaller | undefined {
  const agent = rt.agents.get(name);
  return agent && agentToolCaller(createFrame(rt, [], topLevelScope(), agent, methodCall, agentArgs));
}
