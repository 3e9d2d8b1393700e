/**
 * Agents as tools, the `ask` side (issue #27 §1, docs/language/multi-agent.md): an agent
 * listing `Refunds.handle` in its `tools` offers the model a tool named `Refunds_handle`
 * whose input schema is the method's parameters (one object, compiled as `luma mcp` compiles
 * a served method's) and whose description is the method's `///` doc comment.
 *
 * A model's call of it does not go through the tool pipeline: its arguments are validated
 * here (an invalid one goes back to the model as TOOL_INPUT_INVALID, like any tool's), then
 * the interpreter runs the method as if from code (`AskRequest.callAgent`, given by the
 * interpreter, which owns agents: `ask/` sits below `interpreter/`). The method's own
 * model, tools, policies, retries and timeouts apply; its return value is validated against
 * its return type there and comes back as the tool result.
 */
import type { AgentDecl, Expr, Field, Program } from "../../syntax/ast";
import { createShapeCompiler } from "../../schema/compile-shape";
import { toJsonSchema } from "../../schema/json-schema";
import type { ObjectShape } from "../../schema/shape";
import { toTypeBox } from "../../schema/to-typebox";
import { ShapeValidator } from "../../schema/validator";
import { runtimeError } from "../../diagnostics/luma-error";
import { agentToolName } from "../../language/model-tool-names";
import type { JsonSchema, ToolSpec } from "../providers/provider-types";

/** What a model's call of `Agent_method` runs. */
export interface AgentToolTarget {
  agent: string;
  method: string;
  /** The method's parameter names, in order: the validated object binds by position. */
  params: readonly string[];
  /** `Refunds(user).handle`: the agent's arguments, evaluated over the listing agent's parameters at each call (issue #27 §1). */
  agentArgs?: readonly Expr[];
  /** Checks (and fills defaults of) the arguments object. */
  validate(args: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; messages: string[] };
}

const validator = new ShapeValidator();

/** The spec and target of a `tools` item `Agent.method`; undefined when it names no method (the checker reported it). */
export function agentToolOf(program: Program, item: string, agentArgs?: readonly Expr[]): { name: string; spec: ToolSpec; target: AgentToolTarget } | undefined {
  const [agentName, methodName, ...rest] = item.split(".");
  if (rest.length > 0) return undefined;
  const agent = program.decls.find((d): d is AgentDecl => d.kind === "Agent" && d.name === agentName);
  const method = agent?.methods.find((m) => m.name === methodName);
  if (!agent || !method) return undefined;
  const name = agentToolName(agentName, methodName);
  const shape: ObjectShape = createShapeCompiler(program).objectOf(`__agent_tool_${name}_input`, method.params as Field[]);
  const spec: ToolSpec = { name, parameters: toJsonSchema(toTypeBox(shape)) as JsonSchema };
  spec.description = method.doc ?? `Runs agent ${agentName}'s method ${methodName}.`;
  const target: AgentToolTarget = {
    agent: agentName,
    method: methodName,
    params: method.params.map((p) => p.name),
    agentArgs,
    validate(args) {
      const r = validator.validate(shape, args ?? {}, "input", `${name}.input`);
      return r.ok ? { ok: true, value: r.value as Record<string, unknown> } : { ok: false, messages: r.hard.map((i) => i.message) };
    },
  };
  return { name, spec, target };
}

/** The interpreter's runner of an agent tool call (AskRequest.callAgent). */
export type AgentToolCaller = (target: AgentToolTarget, args: Record<string, unknown>, stepId: string | undefined, callId: string) => Promise<unknown>;

/** Runs one model call of an agent tool: arguments checked here, the method run by the interpreter. */
export function callAgentTool(caller: AgentToolCaller | undefined, target: AgentToolTarget, input: unknown, stepId: string | undefined, callId: string): Promise<unknown> {
  const checked = target.validate(input);
  if (!checked.ok) {
    const message = `Invalid input for tool '${agentToolName(target.agent, target.method)}': ${checked.messages.join("; ")}`;
    return Promise.reject(runtimeError("TOOL_INPUT_INVALID", message));
  }
  if (!caller) return Promise.reject(runtimeError("RUNTIME_ERROR", `Agent tool '${agentToolName(target.agent, target.method)}' needs the interpreter, and none was given to the ask`));
  return caller(target, checked.value, stepId, callId);
}
