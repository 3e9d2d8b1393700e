/**
 * Step 3 of the flow (spec §7): the tool calls of one provider turn. Each goes through the
 * same pipeline as a direct call (`mode: "native"`: policy → input validation → run →
 * output validation), up to `tool_concurrency` at once; results come back in the model's
 * order whatever order they finish in.
 *
 * - `tool_rate_limit`: the first calls up to the limit (counted across the ask attempt) run;
 *   the rest are not run and get a TOOL_RATE_LIMITED error result — and the caller then
 *   sets tool choice "none".
 * - Failures: an input-validation error (arguments that are not JSON included), or a
 *   retryable error whose retries ran out, goes back to the model as an error result (and
 *   the pipeline counted it toward `tool_failure_limit`); any `retryable: false` error stops
 *   the ask at once with that error.
 * - A call refused by policy (deny_write, approval declined, scope, credential, tool
 *   context) stops the ask, unless the agent says `on_denied: "tell_model"`: then the model
 *   gets the refusal's code and message as an error result and the ask goes on.
 * - A tool the agent does not list, or that this ask did not offer, is not run: the model
 *   gets an error result; one whose `when` condition is false in this ask is "not available"
 *   (TOOL_NOT_ACTIVE).
 * - `search_tools`, and a lazy tool called before it was found, are answered by the ask's
 *   discovery (tool-discovery.ts) without the pipeline; they count toward the rate limit.
 * - Queries and commands listed in `tools` are called by name through the same invoker
 *   (the datasource runtime registers them as tool plans, spec §12).
 * - Another agent's method listed in `tools` (`Refunds_handle`) runs through the
 *   interpreter instead of the pipeline (agent-tools.ts); its errors follow the same rules.
 * - A `transfer_to_X` call (the agent's `handoffs`, handoffs.ts) runs nothing: the first of
 *   the turn is answered as made and reported in the outcome (the flow then hands the ask
 *   over), any other one of the same turn gets an error result.
 * - A tool's `max_result_chars`: the model is shown at most that many characters of a result
 *   (result-cut.ts); the pipeline, the journal and the trace have the whole value.
 */
import type { AgentDecl } from "../../syntax/ast";
import { isLumaError, runtimeError, type LumaError } from "../../diagnostics/luma-error";
import type { MethodCallState, ToolInvoker } from "../tools/tool-invoker-types";
import type { ProviderAdapter, ToolCall, ToolResult, ToolSpec } from "../providers/provider-types";
import { nativeCallId } from "../journal/step-scope";
import { cutForModel } from "./result-cut";
import { askSettingsOf } from "../tools/steps/agent-ask-settings";
import type { ToolDiscovery } from "./tool-discovery";
import { callAgentTool, type AgentToolCaller, type AgentToolTarget } from "./agent-tools";
import { transferOf, transferResult } from "./handoffs";

export interface RoundContext {
  tools: ToolInvoker;
  adapter: ProviderAdapter;
  agent: AgentDecl;
  methodCall: MethodCallState;
  specs: ReadonlyMap<string, ToolSpec>;
  /** The offered tools' `max_result_chars`, by name. */
  maxResultChars?: ReadonlyMap<string, number>;
  concurrency: number;
  /** Calls allowed in this attempt and calls made so far; `used` is updated here. */
  rate: { limit: number; used: number };
  /** Lazy tools: answers `search_tools` and refuses lazy tools not found yet. */
  discovery?: ToolDiscovery;
  /** The step id of the provider request whose answer asked for these calls (step-scope.ts). */
  stepBase?: string;
  /** Tools whose `when` is false in this ask (issue #25): not offered, and a call of one is not run. */
  inactive?: ReadonlyMap<string, string>;
  /** Offered agents' methods (`Refunds_handle`, agent-tools.ts) and the interpreter's runner of them. */
  agentTools?: ReadonlyMap<string, AgentToolTarget>;
  callAgent?: AgentToolCaller;
  /** Offered transfers (`transfer_to_Refunds` → `Refunds`, handoffs.ts). */
  handoffs?: ReadonlyMap<string, string>;
}

export interface RoundOutcome {
  results: ToolResult[];
  /** Some call was refused by the rate limit. */
  limitHit: boolean;
  /** Calls actually run. */
  ran: number;
  /** The agent this turn transferred the ask to, and the model's call that asked for it (handoffs.ts). */
  transfer?: { agent: string; callId: string };
}

export const errorContent = (code: string, message: string, retryable: boolean) => ({ error: { code, message, retryable } });

const rateLimited = (call: ToolCall, limit: number): ToolResult => ({
  call,
  isError: true,
  content: errorContent(
    "TOOL_RATE_LIMITED",
    `Tool call limit reached: this ask allows ${limit} tool call${limit === 1 ? "" : "s"}. Answer now without calling tools.`,
    false,
  ),
});

/**
 * A refusal by policy (issue #27 §3): deny_write, a declined approval, scope, credential,
 * a tool context the agent does not allow. A journaled wait for a person (exit 75) is not
 * one: it stops the run whatever `on_denied` says.
 */
const refusedByPolicy = (e: LumaError): boolean =>
  (e.code === "TOOL_PERMISSION_DENIED" || e.code === "TOOL_CONTEXT_INVALID") && e.phase !== "pending";

/** Goes back to the model (true) or stops the ask (false); `on_denied: "tell_model"` also returns refusals. */
const returnsToModel = (e: LumaError, agent: AgentDecl): boolean =>
  e.code === "TOOL_INPUT_INVALID" || e.retryable || (refusedByPolicy(e) && askSettingsOf(agent).onDenied === "tell_model");

export async function runToolRound(ctx: RoundContext, calls: readonly ToolCall[]): Promise<RoundOutcome> {
  const results = new Array<ToolResult>(calls.length);
  const toRun: number[] = [];
  let limitHit = false;
  for (let i = 0; i < calls.length; i++) {
    if (ctx.rate.used >= ctx.rate.limit) {
      results[i] = rateLimited(calls[i], ctx.rate.limit);
      limitHit = true;
    } else {
      ctx.rate.used++;
      toRun.push(i);
    }
  }

  const fatal: (LumaError | undefined)[] = new Array(calls.length);
  let stopped = false;
  const answered = ctx.discovery?.answerRound(calls, toRun);
  const transfer = transferOf(calls, toRun, ctx.handoffs);
  const work = async (i: number): Promise<void> => {
    const call = calls[i];
    // Before the discovery: a lazy tool whose `when` is false is not available, not "search first".
    if (ctx.inactive?.has(call.name)) {
      results[i] = { call, isError: true, content: errorContent("TOOL_NOT_ACTIVE", `Tool '${call.name}' is not available in this conversation.`, false) };
      return;
    }
    const own = answered?.get(i);
    if (own !== undefined) {
      results[i] = own;
      return;
    }
    if (transfer !== undefined && ctx.handoffs!.has(call.name)) {
      results[i] = transferResult(call, transfer, i);
      return;
    }
    if (!ctx.specs.has(call.name)) {
      // A listed tool this ask did not offer (tool-offer.ts) is "not available", not unknown.
      const listed = askSettingsOf(ctx.agent).tools.includes(call.name);
      const message = listed ? `Tool '${call.name}' is not available in this ask.` : `Tool '${call.name}' is not one of this agent's tools.`;
      results[i] = { call, isError: true, content: errorContent("TOOL_NOT_FOUND", message, false) };
      return;
    }
    try {
      results[i] = cutForModel({ call, isError: false, content: await runOne(ctx, call, i) }, ctx.maxResultChars?.get(call.name));
    } catch (e) {
      const err = isLumaError(e) ? e : runtimeError("RUNTIME_ERROR", e instanceof Error ? e.message : String(e));
      if (returnsToModel(err, ctx.agent)) {
        const message = call.argsError !== undefined && err.code === "TOOL_INPUT_INVALID"
          ? `The arguments of tool '${call.name}' are not valid JSON: ${call.argsError}`
          : err.message;
        results[i] = { call, isError: true, content: errorContent(err.code ?? "TOOL_HANDLER_ERROR", message, err.retryable) };
      } else {
        fatal[i] = err;
        stopped = true;
      }
    }
  };

  if (toRun.length === 1 || ctx.concurrency <= 1) {
    for (const i of toRun) {
      if (stopped) break;
      await work(i);
    }
  } else {
    let next = 0;
    const worker = async () => {
      while (next < toRun.length && !stopped) await work(toRun[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(ctx.concurrency, toRun.length) }, worker));
  }
  // The first fatal error in the model's order wins, whatever order the calls finished in.
  for (const e of fatal) if (e) throw e;
  return { results, limitHit, ran: toRun.length, transfer: transfer && { agent: transfer.agent, callId: calls[transfer.index].id } };
}

function runOne(ctx: RoundContext, call: ToolCall, i: number): Promise<unknown> {
  const spec = ctx.specs.get(call.name)!;
  // Unparsable arguments still go through the pipeline (as no input), so input validation
  // fails there — traced and counted toward tool_failure_limit like any other input error.
  const input = call.argsError !== undefined ? undefined : ctx.adapter.normaliseArgs(spec, call.args);
  // Numbered by its place in the model's answer, whatever order concurrent calls start in.
  const stepId = ctx.stepBase === undefined ? undefined : nativeCallId(ctx.stepBase, i + 1);
  // Another agent's method: run by the interpreter, under that agent's own settings (agent-tools.ts).
  const agentTool = ctx.agentTools?.get(call.name);
  if (agentTool) return callAgentTool(ctx.callAgent, agentTool, input, stepId, call.id);
  return ctx.tools.call({ tool: call.name, input, mode: "native", agent: ctx.agent, methodCall: ctx.methodCall, stepId, callId: call.id });
}
