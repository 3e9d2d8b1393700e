/**
 * Agents with parameters at run time (issue #25, docs/language/agents.md § Parameters):
 * `Support(u).reply(…)` binds the agent's parameters for that method call — validated as a
 * fn's parameters are (VALUE_INVALID naming `Support.user.plan`) — and every frame of the
 * call carries them (`Frame.agentArgs`: its methods, their sibling calls, the `system` and
 * the `when` conditions read them).
 *
 * For each `ask` the interpreter hands the ask runner the agent's context: its `system`
 * with the parameters filled in, and the tools whose `when` condition is false (not sent to
 * the model; a native call of one gets a "not available" result). A direct call of such a
 * tool fails here with TOOL_NOT_ACTIVE — not retryable: nothing about the call can change
 * while the parameters stay the same.
 */
import type { AgentDecl, Expr, Field, Span } from "../../syntax/ast";
import { systemTemplateOf, toolConditionsOf } from "../../language/agent-context";
import type { AskContext } from "../ask/ask-types";
import { topLevelScope } from "../journal/step-scope";
import { evalSync } from "./eval-sync";
import { errorAt } from "./runtime-errors";
import { createFrame, type AgentEntry, type Frame, type Runtime } from "./runtime-context";
import { validateParam } from "./validate-value";
import { renderValue, type ObjectValue, type Value } from "./values";

/** The agent's parameter values from the arguments of `Name(args)`, bound by position and validated. */
export function bindAgentArgs(rt: Runtime, agent: AgentDecl, args: Value[], argSpans: Span[], callSpan: Span): Map<string, Value> {
  const params: Field[] = agent.params ?? [];
  if (args.length > params.length) {
    throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Agent '${agent.name}' takes ${params.length} argument(s), got ${args.length}`, callSpan);
  }
  const bound = new Map<string, Value>();
  params.forEach((p, i) => {
    const dflt = p.annotations.find((a) => a.name === "default");
    let v: Value = i < args.length ? args[i] : dflt ? ((dflt.args[0]?.value ?? null) as Value) : null;
    const optional = p.optional || dflt !== undefined;
    if (i >= args.length && !optional) throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Agent '${agent.name}' is missing argument '${p.name}'`, callSpan);
    if (!(v === null && optional)) v = validateParam(rt, p, v, agent.name, argSpans[i] ?? callSpan);
    bound.set(p.name, v);
  });
  return bound;
}

/** The agent's `system` with its parameters filled in; undefined when it interpolates nothing. */
function renderSystem(agent: AgentDecl, args: ReadonlyMap<string, Value>): string | undefined {
  const template = systemTemplateOf(agent);
  if (!template) return undefined;
  let text = "";
  for (const part of template) {
    if (typeof part === "string") text += part;
    else text += renderValue(readPath(args, part.source.trim().split(".")));
  }
  return text;
}

/** `user.name` over the parameters (the checker proved the path; a null on the way reads as null). */
function readPath(args: ReadonlyMap<string, Value>, path: string[]): Value {
  let v: Value = args.get(path[0]) ?? null;
  for (const field of path.slice(1)) v = v !== null && typeof v === "object" && !Array.isArray(v) ? ((v as ObjectValue)[field] ?? null) : null;
  return v;
}

/** The source text of a condition, as the error and the trace name it. */
function conditionText(rt: Runtime, when: Expr): string {
  return rt.sourceOf(when.span.file)?.slice(when.span.start, when.span.end) ?? "";
}

/** Whether COND holds, read from the parameters alone (the checker admits nothing else in it). */
function holds(f: Frame, agent: AgentEntry, when: Expr): boolean {
  const frame = createFrame(f.rt, [], f.scope, agent, f.methodCall, f.agentArgs);
  return evalSync(when, frame) === true;
}

/** What an `ask` of this frame's agent is told about its context; undefined for an agent that needs none. */
export function askContextOf(f: Frame): AskContext | undefined {
  const agent = f.agent;
  if (!agent) return undefined;
  const system = renderSystem(agent.decl, f.agentArgs ?? new Map());
  const inactive = new Map<string, string>();
  for (const { tool, when } of toolConditionsOf(agent.decl)) if (!holds(f, agent, when)) inactive.set(tool, conditionText(f.rt, when));
  if (system === undefined && inactive.size === 0) return undefined;
  return { system, inactive };
}

/** What an `ask` of agent `name` is told of its context for these parameters, outside any of its frames (`luma chat`). */
export function agentContextFor(rt: Runtime, name: string, agentArgs: ReadonlyMap<string, Value>): AskContext | undefined {
  const agent = rt.agents.get(name);
  return agent && askContextOf(createFrame(rt, [], topLevelScope(), agent, undefined, agentArgs));
}

/** The tools of agent `name` whose `when` is false for these parameters (what `luma mcp --agent` does not serve). */
export function inactiveToolsOf(rt: Runtime, name: string, agentArgs: ReadonlyMap<string, Value>): Set<string> {
  const agent = rt.agents.get(name);
  const out = new Set<string>();
  if (!agent) return out;
  const frame = createFrame(rt, [], topLevelScope(), agent, undefined, agentArgs);
  for (const { tool, when } of toolConditionsOf(agent.decl)) if (!holds(frame, agent, when)) out.add(tool);
  return out;
}

/** A direct call of a tool whose `when` is false: TOOL_NOT_ACTIVE, naming the tool, the agent and the condition. */
export function assertToolActive(f: Frame, tool: string, span: Span): void {
  const agent = f.agent;
  if (!agent) return;
  for (const c of toolConditionsOf(agent.decl)) {
    if (c.tool !== tool || holds(f, agent, c.when)) continue;
    const message = `Tool '${tool}' is not active for agent '${agent.decl.name}': its condition '${conditionText(f.rt, c.when)}' is false`;
    throw errorAt(f.rt.sourceOf, "TOOL_NOT_ACTIVE", message, span);
  }
}
