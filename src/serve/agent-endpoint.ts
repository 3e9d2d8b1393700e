/**
 * `POST /agents/{Agent}/{method}` (issue #26 §4): the body is a JSON object of the method's
 * named arguments, checked against its parameters (defaults filled in, 400 with each field
 * named otherwise); the method runs through the interpreter as `Agent.method(…)` would from
 * top level — its asks, tool calls, policies and journal included — and its typed result is
 * the answer's JSON. A failure is the LumaError as JSON with its status (error-answer.ts).
 */
import type { Value } from "../runtime/interpreter/values";
import { callAgentMethod } from "../runtime/interpreter/calls";
import type { Runtime } from "../runtime/interpreter/runtime-context";
import { asLumaError } from "../runtime/interpreter/runtime-errors";
import type { ServedAgents } from "./served-agents";
import { AGENT_ARGS_KEY, type AgentArgs } from "./served-agent-args";
import { readJsonObject, type BodyLimits } from "./request-body";
import { requestInvalid } from "./error-answer";

export interface AgentCall {
  agent: string;
  method: string;
  req: Request;
  /** Aborted when the client goes away or the server stops: every tool the method calls sees it. */
  signal: AbortSignal;
  limits: BodyLimits;
  agentArgs: AgentArgs;
  /** Hears the call's journal run id, when the program has a journal. */
  started?: (runId: string) => void;
}

/** The method's result as JSON text; throws a LumaError for the caller to answer with. */
export async function callServedMethod(rt: Runtime, served: ServedAgents, call: AgentCall): Promise<Value> {
  const tool = served.method(call.agent, call.method);
  const args = await readJsonObject(call.req, `a JSON object of ${tool.name}'s named arguments`, call.limits);
  // The agent's own arguments (`agent Support(user: User)`) come apart from the method's.
  const { [AGENT_ARGS_KEY]: given, ...methodArgs } = args;
  const agentArgs = call.agentArgs.for(tool.agent, given, call.req.headers.has("origin"));
  const checked = tool.validateInput(methodArgs);
  if (!checked.ok) throw requestInvalid(checked.messages.join(" ") || `${tool.name}: the arguments are invalid.`);
  const positional = tool.method.params.map((p) => (checked.value[p.name] ?? null) as Value);
  try {
    return await callAgentMethod(rt, call.agent, call.method, positional, { signal: call.signal }, agentArgs, { started: call.started });
  } catch (e) {
    throw asLumaError(e, rt.sourceOf, tool.method.nameSpan);
  }
}
