/**
 * The `ask` flow (spec §7): the multi-turn exchange with tools, inside the LLM retry loop.
 *
 *   1. request  → messages + tools + tool choice auto (or the forced tool); no final format
 *   2. response → assistant turn + tool calls
 *   3. runtime  → each call through the pipeline (tool-round.ts)
 *   4. messages ← the assistant turn + one result per call
 *   5. request  → messages + tools + the strict final format
 *   6. response → final JSON → local validation
 *
 * - Without tools every request carries the final format. With tools, the format is added
 *   only once a tool call has happened (the first request must leave the model free to call).
 * - `using tool x` forces x until a tool call has happened; then back to auto.
 * - `tool_rate_limit` counts the calls of one attempt; once a call was refused the next
 *   request sets tool choice none. A model that still calls tools then fails the attempt.
 * - Attempts (`retries` + 1): an invalid final answer (JSON or schema) is fed back to the
 *   model with what was wrong; a transient provider failure (after its own HTTP retries) is
 *   retried as is. A non-retryable provider error, or a `retryable: false` tool error, ends
 *   the ask at once. Each attempt starts with a fresh rate-limit count.
 * - `stream ask` (plan.plainText): no response format is ever asked for; each turn's text is
 *   handed to `req.onText` as it arrives (a turn the journal answers, unstreamed, all at
 *   once), and the answer is all the text streamed, segments before tool calls included.
 *   Once text went out, a failure ends the ask: a retry would write it twice.
 * - Handoffs (issue #27 §2, handoffs.ts): a turn that calls `transfer_to_X` hands the ask to
 *   agent X — from the next request on, X's system, model, tools and policies act on the
 *   same transcript; the attempts, the ceiling and `max_handoffs` stay the first agent's.
 * - The agent's `ask_timeout` bounds the whole flow: every provider try and retry wait must
 *   end before it (provider-client.ts); tool rounds are bounded by their own timeouts and the
 *   next request after one past the ceiling fails at once.
 */
import { freshSoftIssues } from "../base/soft-issue-report";
import { isLumaError, runtimeError, type LumaError } from "../../diagnostics/luma-error";
import type { SchemaTable, ValidationIssue } from "../../schema/schema-table-types";
import type { ToolInvoker } from "../tools/tool-invoker-types";
import { requestTurn, type ProviderClient } from "../providers/provider-client";
import { isUnsent } from "../providers/resolve-model";
import type { ToolChoice, TranscriptItem, TurnRequest, TurnResult } from "../providers/provider-types";
import { journaledTurn } from "./journaled-turn";
import type { RunJournal } from "../journal/run-journal";
import { askRequestId } from "../journal/step-scope";
import { askErrors, locatedAt } from "./ask-errors";
import type { AskPlan } from "./ask-plan";
import { decodeAnswer } from "./ask-target";
import type { AskStats } from "./ask-trace";
import { addUsage } from "../usage/token-totals";
import { chargeResponse } from "../usage/budgets";
import type { AskContext, AskRequest } from "./ask-types";
import type { AgentDecl } from "../../syntax/ast";
import { handoffEvent, journalHandoff, neutralTranscript } from "./handoffs";
import { newShare } from "./ask-trace";
import { retryFeedback, TOOLS_AFTER_LIMIT } from "./prompt-rendering";
import { errorContent, runToolRound, type RoundContext } from "./tool-round";
import type { HandoffAllowance, ToolOffer } from "./tool-offer";
import { startDiscovery, type ToolDiscovery } from "./tool-discovery";

export interface FlowEnv {
  client: ProviderClient;
  schemas: SchemaTable;
  tools: ToolInvoker;
  /** Soft issues of the final value (warnings + trace). */
  onSoft: (issue: ValidationIssue, req: AskRequest) => void;
  /** The run's journal (durable runs): provider requests become steps. */
  journal?: RunJournal;
}

const AUTO: ToolChoice = { type: "auto" };
const NONE: ToolChoice = { type: "none" };

/** Who answers the ask now: its own agent, or the one it was last handed to (handoffs.ts). */
export interface Acting {
  agent: AgentDecl;
  plan: AskPlan;
  offer: ToolOffer;
  /** The agent's context for this ask (its parameters; none for an agent handed to). */
  context?: AskContext;
}

/** The runner's side of a transfer: the plan and offer of agent `to`, allowed `left` more transfers. */
export type HandOff = (to: string, left: HandoffAllowance) => Acting;

export async function runAskFlow(env: FlowEnv, plan: AskPlan, offer: ToolOffer, req: AskRequest, stats: AskStats, handOff: HandOff): Promise<unknown> {
  // The user's text is always a user message and a tool's result a tool result: neither ever joins `system`.
  const prompt: TranscriptItem = { kind: "user", text: req.prompt };
  const transcript: TranscriptItem[] = req.thread ? [...req.thread.history, prompt] : [prompt];
  // `ask … in t`: what the thread keeps of this ask — the prompt, then each tool round (not retry feedback) — and which agent produced each.
  const exchange: TranscriptItem[] = [prompt];
  const producedBy: (string | undefined)[] = [undefined];
  // Retries, ask_timeout and max_handoffs stay those of the agent where the ask started (`plan`).
  const maxAttempts = plan.settings.retries + 1;
  const maxHandoffs = plan.settings.maxHandoffs;
  let acting: Acting = { agent: req.agent, plan, offer, context: req.context };
  let share = newShare(req.agent.name, plan.model);
  stats.byAgent.push(share);
  const rate = { limit: plan.settings.toolRateLimit, used: 0 };
  // Lazy tools: what this ask has found so far decides each request's tools (tool-discovery.ts).
  // Only among the tools this ask offers (tool-offer.ts): a withheld tool is never found.
  let discovery = startDiscovery(offer.lazy, offer.tools, req.agent.name, env.client.trace);
  let round = roundContext(env, acting, req, rate, discovery);
  const keep = (item: TranscriptItem) => {
    exchange.push(item);
    producedBy.push(acting.agent.name);
  };
  let toolCalled = false;
  let failure: LumaError | undefined;
  const stream = req.onText && streamedText(req.onText);
  const ceiling = { at: env.client.now() + plan.settings.askTimeout, limitMs: plan.settings.askTimeout };

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    stats.attempts = attempt;
    rate.used = 0;
    let limitHit = false;
    for (;;) {
      const { plan, offer } = acting;
      const hasTools = offer.tools !== undefined;
      // A cancelled method call (its MCP client cancelled it, a served chat's client went away) asks the model nothing more.
      const cancelled = req.methodCall.signal;
      if (cancelled?.aborted) throw isLumaError(cancelled.reason) ? cancelled.reason : runtimeError("RUNTIME_ERROR", `The ask at ${req.location} was cancelled: its caller went away.`);
      const choice: ToolChoice = !hasTools ? AUTO : limitHit ? NONE : plan.forced && !toolCalled ? { type: "tool", name: plan.forced } : AUTO;
      let res: TurnResult;
      const format = plan.plainText ? undefined : !hasTools || toolCalled ? plan.format : undefined;
      const turn: TurnRequest = { system: offer.systemFor(discovery.found(), acting.context?.system), transcript, tools: discovery.offered(), toolChoice: choice, format, onText: stream?.turn() };
      // Not called when the journal answers the request: its text then goes out marked replayed.
      let sent = false;
      const send = () => ((sent = true), requestTurn(env.client, plan.model, plan.adapter, turn, { agent: acting.agent.name, turn: stats.turns, ceiling, signal: req.signal }));
      // In a journaled run each request is a step: an answered one is not sent again (journaled-turn.ts).
      const n = stats.turns + 1;
      req.methodCall.progress?.(`${req.agent.name}: ask turn ${n} (${plan.traceBase.model})`);
      round.stepBase = req.stepId === undefined ? undefined : askRequestId(req.stepId, n);
      try {
        res = await (env.journal !== undefined && req.stepId !== undefined ? journaledTurn(env.journal, req.stepId, n, plan.model, turn, send, req.agent.name) : send());
      } catch (e) {
        // A request that could not be sent (a journaled run's missing key, resolve-model.ts) is no request.
        if (!isUnsent(e)) {
          stats.turns++;
          share.turns++;
        }
        if (!isLumaError(e) || e.code !== "PROVIDER_ERROR") throw e;
        failure = locatedAt(e, req.location);
        if (e.retryable && attempt < maxAttempts && !stream?.wrote) break;
        throw failure;
      }
      stats.turns++;
      share.turns++;
      addUsage(stats, res.usage);
      addUsage(share, res.usage);
      // Budgets (usage/budgets.ts): the response that crosses one is not used.
      try {
        chargeResponse(req.methodCall.budgets, plan.model, res.usage);
      } catch (e) {
        throw locatedAt(e as LumaError, req.location);
      }
      stream?.answered(res.text, !sent);

      if (res.toolCalls.length > 0) {
        const turnItem: TranscriptItem = { kind: "assistant", native: res.assistant, text: res.text, toolCalls: res.toolCalls };
        transcript.push(turnItem);
        keep(turnItem);
        toolCalled = true;
        if (choice.type === "none") {
          // Every call must still be answered (providers reject unanswered calls), then the attempt fails.
          const refused = res.toolCalls.map((call) => ({ call, isError: true, content: errorContent("TOOL_RATE_LIMITED", TOOLS_AFTER_LIMIT, false) }));
          transcript.push({ kind: "tool_results", results: refused });
          keep(transcript[transcript.length - 1]);
          stats.rateLimited += refused.length;
          failure = askErrors.outputInvalid(plan.traceBase.target, plan.model.decl, attempt, TOOLS_AFTER_LIMIT, req.location);
          if (attempt < maxAttempts) transcript.push({ kind: "user", text: retryFeedback(TOOLS_AFTER_LIMIT, plan.format.format) });
          break;
        }
        req.onToolRound?.calls(res.toolCalls);
        const outcome = await runToolRound(round, res.toolCalls);
        req.onToolRound?.results(outcome.results);
        stats.toolCalls += outcome.ran;
        stats.rateLimited += res.toolCalls.length - outcome.ran;
        transcript.push({ kind: "tool_results", results: outcome.results });
        keep(transcript[transcript.length - 1]);
        if (outcome.limitHit) limitHit = true;
        if (outcome.transfer !== undefined) {
          // Issue #27 §2: the same ask goes on with the agent handed to (handoffs.ts).
          const from = acting.agent.name;
          const to = await journalHandoff(env.journal, round.stepBase, from, outcome.transfer.agent);
          // This transfer's number: the shares so far are the ask's own agent's and one per earlier transfer.
          const used = stats.byAgent.length;
          env.client.trace?.(handoffEvent(from, to, used, maxHandoffs, outcome.transfer.callId));
          const next = handOff(to, { left: maxHandoffs - used, limit: maxHandoffs });
          if (next.plan.adapter !== plan.adapter) neutralTranscript(transcript);
          acting = next;
          share = newShare(to, next.plan.model);
          stats.byAgent.push(share);
          rate.limit = next.plan.settings.toolRateLimit;
          discovery = startDiscovery(next.offer.lazy, next.offer.tools, to, env.client.trace);
          round = roundContext(env, acting, req, rate, discovery);
        }
        continue;
      }

      const verdict = res.refusal !== undefined
        ? { ok: false as const, reason: `The model refused to answer: ${res.refusal}` }
        : stream
          ? { ok: true as const, value: stream.all(), soft: [], unfenced: false }
          : decodeAnswer(res.text, plan.target, plan.adapter, env.schemas);
      if (verdict.ok) {
        stats.fenceStripped = verdict.unfenced;
        for (const issue of freshSoftIssues(verdict.value, plan.target.root, verdict.soft)) env.onSoft(issue, req);
        // The thread keeps the answer as the program got it: a string as is, else its JSON.
        const answer = typeof verdict.value === "string" ? verdict.value : JSON.stringify(verdict.value);
        req.thread?.onExchange({ items: exchange, agents: producedBy, answer, answeredBy: acting.agent.name });
        return verdict.value;
      }
      failure = askErrors.outputInvalid(plan.traceBase.target, plan.model.decl, attempt, verdict.reason, req.location);
      if (attempt < maxAttempts) {
        if (res.assistant !== undefined) transcript.push({ kind: "assistant", native: res.assistant, text: res.text, toolCalls: res.toolCalls });
        transcript.push({ kind: "user", text: retryFeedback(verdict.reason, plan.format.format) });
      }
      break;
    }
  }
  throw failure!;
}

/** The tool round's context for the acting agent: its tools, policies and limits; the rate count goes on across a handoff. */
function roundContext(env: FlowEnv, acting: Acting, req: AskRequest, rate: { limit: number; used: number }, discovery: ToolDiscovery): RoundContext {
  const { plan, offer } = acting;
  return {
    discovery,
    tools: env.tools,
    adapter: plan.adapter,
    agent: acting.agent,
    methodCall: req.methodCall,
    specs: offer.specs,
    maxResultChars: offer.maxResultChars,
    concurrency: plan.settings.toolConcurrency,
    rate,
    inactive: acting.context?.inactive,
    agentTools: offer.agentTools,
    callAgent: req.callAgent,
    handoffs: offer.handoffs,
  };
}

/**
 * A `stream ask`'s text across its turns: what each turn streamed live, or — for a turn
 * the journal answered (or a server that did not stream) — its whole text at once.
 */
function streamedText(onText: (delta: string, replayed?: boolean) => void) {
  let all = "";
  let thisTurn = false;
  const write = (delta: string, replayed?: boolean) => {
    thisTurn = true;
    all += delta;
    onText(delta, replayed);
  };
  return {
    get wrote() {
      return all !== "";
    },
    /** The handler for the next request's text. */
    turn() {
      thisTurn = false;
      return write;
    },
    /** A turn's result: its text goes out now if none of it streamed (`replayed`: the journal answered it). */
    answered(text: string, replayed: boolean) {
      if (!thisTurn && text !== "") write(text, replayed);
    },
    all: () => all,
  };
}
