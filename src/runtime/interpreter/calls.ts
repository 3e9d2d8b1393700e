/**
 * Calls: builtins, top-level `fn`s, and agent methods (spec §6, §7).
 *
 * Resolution of `name(…)`: a method of the current agent (a bare sibling call), else a
 * top-level `fn`, else a builtin — so user functions shadow builtins. `Agent.method(…)` calls
 * a method of a declared agent; `Agent(args).method(…)` one of an agent with parameters,
 * given its arguments first (agent-context.ts). What a call names is read from the program's
 * one name resolution (`language/name-resolution.ts`, the frame's unit), as the checker reads it.
 *
 * The circuit breaker's `MethodCallState` (spec §9): every `Agent.method(…)` call — from top
 * level, from a top-level fn, or from inside an agent — starts a new agent method call with
 * `{ failures: 0 }`; a bare sibling call stays inside the caller's method call and shares its
 * state. A top-level fn called from a method runs outside the agent (its tool calls pass no
 * agent and no method call).
 *
 * Arguments bind by position. Missing trailing arguments take the parameter's `@default`,
 * or `null` when the parameter is optional (`x?: T`); a missing required argument or an extra
 * one is RUNTIME_ERROR. Each argument is validated against its parameter type as an input
 * (VALUE_INVALID, path `Flow.run.text`); an explicit `null` for an optional parameter is
 * accepted. The result — `return`'s value, else the value the body ends with — is validated
 * against the declared return type as an output (path `Flow.run.return`).
 *
 * Depth: more than MAX_CALL_DEPTH nested calls is a RUNTIME_ERROR, never a JS stack overflow.
 * A run that was stopped (a test's deadline, run/run-deadline.ts) ends at a call: recursion
 * settles promise after promise without yielding to the event loop (checkStoppedEvery).
 */
import type { Expr, Field, FnDecl, Span } from "../../syntax/ast";
import type { MethodCallState } from "../tools/tool-invoker-types";
import { BUILTINS, callBuiltinAsync } from "./builtins";
import { builtinSuspends, openThreadCall } from "./builtins-threads";
import { applyLambdaAsync, applyLambdaSync, lambdaOf } from "./builtins-lambdas";
import { evalExpr } from "./eval-async";
import { evalSync } from "./eval-sync";
import { execBlockAsync } from "./exec-async";
import { execBlockSync } from "./exec-sync";
import { errorAt } from "./runtime-errors";
import { checkStoppedEvery } from "./statement-helpers";
import { outsideCallScope, topLevelScope } from "../journal/step-scope";
import { unjournaledCall, type CallRunOptions } from "../journal/call-runs";
import { createFrame, MAX_CALL_DEPTH, type AgentEntry, type Frame, type Runtime } from "./runtime-context";
import { validateParam, validateValue } from "./validate-value";
import { bindAgentArgs } from "./agent-context";
import { budgetsFor } from "../usage/budgets";
import { askSettingsOf } from "../tools/steps/agent-ask-settings";
import type { Value } from "./values";

type CallExpr = Extract<Expr, { kind: "Call" }>;

interface Callee {
  fn: FnDecl;
  label: string;
  agent?: AgentEntry;
  methodCall?: MethodCallState;
  /** An agent with parameters: the values it was given (`Support(u).m(…)`), seen by every frame of the call. */
  agentArgs?: ReadonlyMap<string, Value>;
}

export async function evalCall(e: CallExpr, f: Frame): Promise<Value> {
  const rt = f.rt;
  const callee = e.callee;
  if (callee.kind === "Name") {
    const name = callee.name;
    const target = f.unit?.call(name);
    if (target?.kind === "method" && f.agent) {
      const methodCall = f.methodCall ?? { failures: 0 };
      return callUser(f, { fn: target.decl, label: `${f.agent.decl.name}.${name}`, agent: f.agent, methodCall, agentArgs: f.agentArgs }, await evalArgs(e, f), e);
    }
    if (target?.kind === "fn") return callUser(f, { fn: target.decl, label: name }, await evalArgs(e, f), e);
    const builtin = target?.kind === "builtin" ? BUILTINS[target.name] : undefined;
    const lambda = builtin?.lambda ? lambdaOf(e) : undefined;
    if (lambda) {
      const list = await evalExpr(e.args[0], f);
      // A body that cannot suspend runs on the synchronous evaluator, item after item.
      if (!rt.analysis.expr(lambda.body)) return applyLambdaSync(f, name, e, lambda, list, (body) => evalSync(body, f));
      return applyLambdaAsync(f, name, e, lambda, list, (body) => evalExpr(body, f));
    }
    if (builtin) {
      const args = await evalArgs(e, f);
      return builtinSuspends(name, args.length) ? openThreadCall(rt, args, e.span) : callBuiltinAsync(rt, name, builtin, args, e.span);
    }
    throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Unknown function '${name}'`, callee.span);
  }
  const given = callee.kind === "Member" && callee.object.kind === "Call" && callee.object.callee.kind === "Name" ? callee.object : undefined;
  if (callee.kind === "Member" && (callee.object.kind === "Name" || given)) {
    const agentName = given ? (given.callee as Extract<Expr, { kind: "Name" }>).name : (callee.object as Extract<Expr, { kind: "Name" }>).name;
    const target = given ? undefined : f.unit?.callObject(agentName);
    const agent = given || target?.kind === "agent" ? rt.agents.get(agentName) : undefined;
    if (agent) {
      const method = agent.methods.get(callee.property);
      if (!method) {
        throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `Agent '${agentName}' has no method '${callee.property}'`, callee.span);
      }
      const label = `${agentName}.${callee.property}`;
      // A new method call, still under the caller's cancellation (if one was given from outside).
      const budgets = budgetsFor(agentName, askSettingsOf(agent.decl), f.methodCall?.budgets);
      const methodCall = innerMethodCall(f.methodCall, { signal: f.signal ?? f.methodCall?.signal, agentDepth: f.methodCall?.agentDepth, budgets });
      // `Support(u).reply(…)`: the agent's arguments first, bound and validated (agent-context.ts).
      const agentArgs = given ? bindAgentArgs(rt, agent.decl, await evalArgs(given, f), given.args.map((a) => a.span), given.span) : undefined;
      const args = await evalArgs(e, f);
      const run = () => callUser(f, { fn: method, label, agent, methodCall, agentArgs }, args, e);
      // A new agent method call is one `invoke_agent` span (a sibling call stays inside its caller's).
      return rt.host.telemetry ? rt.host.telemetry.invokeAgent(agentName, callee.property, run) : run();
    }
  }
  throw errorAt(rt.sourceOf, "RUNTIME_ERROR", "Only functions, builtins and agent methods can be called", callee.span);
}

/** Arguments left to right; without a promise when none of them can suspend (the common case). */
function evalArgs(e: CallExpr, f: Frame): Value[] | Promise<Value[]> {
  const analysis = f.rt.analysis;
  for (const a of e.args) if (analysis.expr(a)) return evalArgsAsync(e, f);
  const out = new Array<Value>(e.args.length);
  for (let i = 0; i < e.args.length; i++) out[i] = evalSync(e.args[i], f);
  return out;
}

async function evalArgsAsync(e: CallExpr, f: Frame): Promise<Value[]> {
  const out = new Array<Value>(e.args.length);
  for (let i = 0; i < e.args.length; i++) out[i] = await evalExpr(e.args[i], f);
  return out;
}

interface ParamInfo {
  field: Field;
  hasDefault: boolean;
  defaultValue: Value;
}

const paramCache = new WeakMap<FnDecl, ParamInfo[]>();

function paramsOf(fn: FnDecl): ParamInfo[] {
  let info = paramCache.get(fn);
  if (!info) {
    info = fn.params.map((field) => {
      const d = field.annotations.find((a) => a.name === "default");
      return { field, hasDefault: d !== undefined, defaultValue: (d?.args[0]?.value ?? null) as Value };
    });
    paramCache.set(fn, info);
  }
  return info;
}

async function callUser(caller: Frame, c: Callee, args: Value[], call: CallExpr): Promise<Value> {
  const rt = caller.rt;
  checkStoppedEvery(rt);
  if (rt.depth >= MAX_CALL_DEPTH) {
    throw errorAt(
      rt.sourceOf,
      "RUNTIME_ERROR",
      `Maximum call depth of ${MAX_CALL_DEPTH} exceeded calling '${c.label}' (unbounded recursion?)`,
      call.span,
    );
  }
  const fn = c.fn;
  // The callee's steps are numbered inside the caller's next step number (step-scope.ts).
  const frame = createFrame(rt, fn.body, caller.scope.child(c.label), c.agent, c.methodCall, c.agentArgs);
  // Called from a `parallel` branch: the branch's cancellation reaches the callee's calls too.
  if (caller.signal) frame.signal = caller.signal;
  bindParams(rt, c, args, call, frame);
  rt.depth++;
  let result: Value;
  try {
    result = rt.analysis.block(fn.body) ? await execBlockAsync(fn.body, frame) : execBlockSync(fn.body, frame);
  } finally {
    rt.depth--;
  }
  if (frame.returned) result = frame.returnValue;
  if (!fn.returns) return result;
  const at: Span = frame.returned && frame.returnSpan ? frame.returnSpan : (fn.body[fn.body.length - 1]?.span ?? fn.nameSpan);
  return validateValue(rt, fn.returns, result, "output", `${c.label}.return`, at);
}

function bindParams(rt: Runtime, c: Callee, args: Value[], call: CallExpr, frame: Frame): void {
  const params = paramsOf(c.fn);
  if (args.length > params.length) {
    throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `'${c.label}' takes ${params.length} argument(s), got ${args.length}`, call.span);
  }
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    const name = p.field.name;
    const optional = p.field.optional || p.hasDefault;
    let v: Value;
    if (i < args.length) v = args[i];
    else if (p.hasDefault) v = p.defaultValue;
    else if (optional) v = null;
    else throw errorAt(rt.sourceOf, "RUNTIME_ERROR", `'${c.label}' is missing argument '${name}'`, call.span);
    if (!(v === null && optional)) {
      v = validateParam(rt, p.field, v, c.label, call.args[i]?.span ?? call.span);
    }
    frame.vars.set(name, v);
  }
}

/**
 * The state of an agent method call made inside another (`outer`; `Refunds.handle(…)` in
 * code, or a model's call of `Refunds_handle`): a failure count of its own, its own
 * cancellation, depth and budgets, and what the outer call's caller gave it — the client's
 * asker, progress sink and granted scopes — carried in. One place, so that a new thing a
 * caller gives reaches both kinds of inner call.
 */
export function innerMethodCall(outer: MethodCallState | undefined, own: Pick<MethodCallState, "signal" | "agentDepth" | "budgets">): MethodCallState {
  // The caller's approver too: an approval inside (an agent called as a tool) asks where a direct one would.
  return { failures: 0, ...own, approve: outer?.approve, askValue: outer?.askValue, progress: outer?.progress, scopes: outer?.scopes };
}

/**
 * An agent method called by a model as a tool (agent-tools.ts): a new method call made
 * from `caller` (an empty frame whose scope numbers it), arguments by position.
 */
export function callAgentMethodIn(caller: Frame, agent: AgentEntry, method: FnDecl, args: Value[], methodCall: MethodCallState, agentArgs?: ReadonlyMap<string, Value>): Promise<Value> {
  const call: CallExpr = { kind: "Call", callee: { kind: "Name", name: method.name, span: method.nameSpan }, args: [], span: method.nameSpan };
  return callUser(caller, { fn: method, label: `${agent.decl.name}.${method.name}`, agent, methodCall, agentArgs }, args, call);
}

/**
 * `Agent.method(args…)` called from outside the program's code — `luma mcp` serves agent
 * methods as MCP tools (src/mcp/). It is one new agent method call, as from top level:
 * arguments bind and validate by position, the result is validated against the return type.
 * `caller` is what the outside caller gives each of the method's tool calls: its cancellation
 * (`signal`, reaching every handler), its approver and asker (an MCP client's elicitation),
 * its progress and its granted scopes.
 */
export type OutsideCaller = Pick<MethodCallState, "signal" | "approve" | "askValue" | "progress" | "scopes">;

export function callAgentMethod(
  rt: Runtime,
  agentName: string,
  method: string,
  args: Value[],
  caller: OutsideCaller = {},
  agentArgs?: ReadonlyMap<string, Value>,
  runOptions?: CallRunOptions,
): Promise<Value> {
  const agent = rt.agents.get(agentName);
  const fn = agent?.methods.get(method);
  if (!agent || !fn) throw new Error(`internal: no method ${agentName}.${method}`);
  const call: CallExpr = { kind: "Call", callee: { kind: "Name", name: method, span: fn.nameSpan }, args: [], span: fn.nameSpan };
  // Called as from top level: an empty top-level frame is the caller (its step scope numbers
  // the call), a scope of its own per call so two calls' steps never share an id.
  const budgets = budgetsFor(agentName, askSettingsOf(agent.decl));
  // With a journal, the call is a run of its own (call-runs.ts), numbered from `main`.
  const scope = (ownRun: boolean) => (ownRun ? topLevelScope() : outsideCallScope());
  const made = (ownRun: boolean) => callUser(createFrame(rt, [], scope(ownRun)), { fn, label: `${agentName}.${method}`, agent, methodCall: { failures: 0, ...caller, budgets }, agentArgs }, args, call);
  // One `invoke_agent` span, as `Agent.method(…)` from top level would be.
  const run = (ownRun: boolean) => (rt.host.telemetry ? rt.host.telemetry.invokeAgent(agentName, method, () => made(ownRun)) : made(ownRun));
  return (rt.host.callRun ?? unjournaledCall)(run, runOptions);
}
