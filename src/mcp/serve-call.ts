/**
 * One `tools/call` of `luma mcp`: a served tool runs through the program's one tool
 * pipeline (createToolInvoker, every step: policy, scopes, credentials, needs, timeout,
 * retries, cache, idempotency, breaker, trace) under the served agent; an agent method runs
 * through the interpreter, as `Agent.method(…)` would from top level. The client's
 * cancellation aborts the handler's AbortSignal — of the tool, or of every tool the method
 * calls (directly, or natively from an `ask`).
 *
 * The answer is data, never a protocol error: a success carries `structuredContent` (the
 * validated value, wrapped as `{ result }` when its type is not an object) and that same
 * JSON, serialized, as text; a failure is `isError: true` whose text is the error as JSON —
 * `{ code, message, retryable }`, plus `details` only for a tool whose `error:` schema
 * validated them (pipeline codes never carry details out: their details are Luma's own).
 *
 * With OpenTelemetry export on, each call is a trace of its own (its `invoke_agent` or
 * `execute_tool` span is the root), exported within about a second of its end.
 */
import { LumaError } from "../diagnostics/luma-error";
import type { Value } from "../runtime/interpreter/values";
import { callAgentMethod } from "../runtime/interpreter/calls";
import type { Runtime } from "../runtime/interpreter/runtime-context";
import { asLumaError } from "../runtime/interpreter/runtime-errors";
import { unjournaledCall, type CallRun } from "../runtime/journal/call-runs";
import { topLevelScope } from "../runtime/journal/step-scope";
import type { AskValue, ProgressSink, ToolInvoker } from "../runtime/tools/tool-invoker-types";
import type { Telemetry } from "../runtime/telemetry/telemetry";
import type { ServedMethod, ServedTool } from "./served-tools";

export interface CallToolAnswer {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ServeCallDeps {
  tools: ToolInvoker;
  /** The interpreter's state for agent methods (one per served program). */
  interpreter: Runtime;
  /** OpenTelemetry export, when configured: each call gets its own trace. */
  telemetry?: Pick<Telemetry, "newTrace">;
  /** The served agent's parameters (`--agent-args`), for every method call. */
  agentArgs?: ReadonlyMap<string, Value>;
}

export interface CallOptions {
  signal: AbortSignal;
  approve: (tool: string, args: string, withinMs: number, writes?: boolean) => Promise<boolean>;
  /** Asks the client for a value: a client tool's answer, an approval's note (elicitation). */
  askValue?: AskValue;
  /** The request's progress token's sink: the pipeline's steps, a method's tool calls and `ask` turns. */
  progress?: ProgressSink;
  /** The session's OAuth grant (oauth-access.ts): every tool call, a method's included, is held to it. */
  scopes?: readonly string[];
}

/** The spec's own codes: their `details` describe Luma internals and stay inside. */
const PIPELINE_CODE = /^(?:TOOL_|ASK_|PROVIDER_|QUERY_|VALUE_|RUNTIME_)/;

const text = (value: unknown) => [{ type: "text" as const, text: JSON.stringify(value) }];

export function errorAnswer(e: LumaError, detailsAllowed: boolean): CallToolAnswer {
  const body: Record<string, unknown> = { code: e.code ?? "RUNTIME_ERROR", message: e.message, retryable: e.retryable };
  if (detailsAllowed && e.details !== undefined && !PIPELINE_CODE.test(String(e.code))) body.details = e.details;
  return { isError: true, content: text(body) };
}

/** The text is the serialized `structuredContent`, so a client that reads only text gets the same JSON. */
const successAnswer = (tool: ServedTool, value: unknown): CallToolAnswer => {
  const structured = tool.wrapsResult ? { result: value ?? null } : (value as Record<string, unknown>);
  return { structuredContent: structured, content: text(structured) };
};

const invalidArguments = (tool: ServedTool, messages: string[]) =>
  new LumaError({ code: "TOOL_INPUT_INVALID", message: messages.join(" ") || `${tool.name}.input is invalid.` });

async function runMethod(deps: ServeCallDeps, tool: ServedMethod, args: unknown, opts: CallOptions): Promise<Value> {
  const checked = tool.validateInput(args);
  if (!checked.ok) throw invalidArguments(tool, checked.messages);
  const positional = tool.method.params.map((p) => (checked.value[p.name] ?? null) as Value);
  return callAgentMethod(deps.interpreter, tool.agent.name, tool.method.name, positional, { signal: opts.signal, approve: opts.approve, askValue: opts.askValue, progress: opts.progress, scopes: opts.scopes }, deps.agentArgs);
}

const callRunOf = (deps: ServeCallDeps): CallRun => deps.interpreter.host.callRun ?? unjournaledCall;

export function serveCall(deps: ServeCallDeps, tool: ServedTool, args: unknown, opts: CallOptions): Promise<CallToolAnswer> {
  return deps.telemetry ? deps.telemetry.newTrace(() => answer(deps, tool, args, opts)) : answer(deps, tool, args, opts);
}

async function answer(deps: ServeCallDeps, tool: ServedTool, args: unknown, opts: CallOptions): Promise<CallToolAnswer> {
  try {
    const value =
      tool.kind === "tool"
        ? await callRunOf(deps)((ownRun) =>
            deps.tools.call({
              tool: tool.tool,
              input: args ?? {},
              mode: "direct",
              agent: tool.agent,
              methodCall: tool.agent ? { failures: 0 } : undefined,
              signal: opts.signal,
              approve: opts.approve,
              askValue: opts.askValue,
              progress: opts.progress,
              scopes: opts.scopes,
              // With a journal the call is a run of its own (call-runs.ts) whose one step it is.
              stepId: ownRun ? topLevelScope().nextStep() : undefined,
            }),
          )
        : await runMethod(deps, tool, args, opts);
    return successAnswer(tool, value);
  } catch (e) {
    const span = tool.kind === "method" ? tool.method.nameSpan : { file: "", start: 0, end: 0 };
    return errorAnswer(asLumaError(e, deps.interpreter.sourceOf, span), tool.kind === "tool" && tool.typedErrors);
  }
}
