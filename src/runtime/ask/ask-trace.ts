/**
 * The `ask` trace event (spec §14): one per ask, after it ends. Names and counters only —
 * no prompt, no answer, no key. Token counts are summed over the ask's provider responses;
 * a count no response reported stays null (unknown is not zero).
 */
import { noTokens, type TokenTotals } from "../usage/token-totals";
import type { ResolvedModel } from "../providers/provider-types";

/** What one agent acting in an ask spent: the ask's own agent, then each one it was handed to (issue #27 §2). */
export interface AgentShare extends TokenTotals {
  agent: string;
  model: ResolvedModel;
  turns: number;
}

export const newShare = (agent: string, model: ResolvedModel): AgentShare => ({ agent, model, turns: 0, ...noTokens() });

export interface AskStats extends TokenTotals {
  attempts: number;
  turns: number;
  toolCalls: number;
  rateLimited: number;
  /** The final answer's JSON came inside a ```json fence (answer-fence.ts). */
  fenceStripped: boolean;
  /** Per acting agent, in order: the ask's own first, then each handed to. */
  byAgent: AgentShare[];
}

export interface AskEvent {
  event: "ask";
  agent: string;
  model: string;
  provider: string;
  target: string;
  attempts: number;
  turns: number;
  tool_calls: number;
  rate_limited: number;
  tokens_in: number | null;
  tokens_out: number | null;
  tokens_cached: number | null;
  tokens_reasoning: number | null;
  duration_ms: number;
  outcome: "ok" | "error";
  code: string | null;
  fence_stripped: boolean;
  /** The agents the ask was handed to, in order (issue #27 §2); empty when none. */
  handoffs: string[];
}

export const newStats = (): AskStats => ({ attempts: 0, turns: 0, toolCalls: 0, rateLimited: 0, fenceStripped: false, byAgent: [], ...noTokens() });

export function askEvent(
  base: { agent: string; model: string; provider: string; target: string },
  stats: AskStats,
  durationMs: number,
  error?: { code?: string },
): AskEvent {
  return {
    event: "ask",
    ...base,
    attempts: stats.attempts,
    turns: stats.turns,
    tool_calls: stats.toolCalls,
    rate_limited: stats.rateLimited,
    tokens_in: stats.tokensIn,
    tokens_out: stats.tokensOut,
    tokens_cached: stats.tokensCached,
    tokens_reasoning: stats.tokensReasoning,
    duration_ms: Math.round(durationMs * 1000) / 1000,
    outcome: error ? "error" : "ok",
    code: error ? (error.code ?? null) : null,
    fence_stripped: stats.fenceStripped,
    handoffs: stats.byAgent.slice(1).map((s) => s.agent),
  };
}
