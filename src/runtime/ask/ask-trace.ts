/**
 * The `ask` trace event (spec §14): one per ask, after it ends. Names and counters only —
 * no prompt, no answer, no key. Token counts are summed over the ask's provider responses;
 * a count no response reported stays null (unknown is not zero).
 */
import type { Usage } from "../providers/provider-types";

export interface TokenTotals {
  tokensIn: number | null;
  tokensOut: number | null;
  tokensCached: number | null;
  tokensReasoning: number | null;
}

export interface AskStats extends TokenTotals {
  attempts: number;
  turns: number;
  toolCalls: number;
  rateLimited: number;
  /** The final answer's JSON came inside a ```json fence (answer-fence.ts). */
  fenceStripped: boolean;
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
}

export const noTokens = (): TokenTotals => ({ tokensIn: null, tokensOut: null, tokensCached: null, tokensReasoning: null });

export const newStats = (): AskStats => ({ attempts: 0, turns: 0, toolCalls: 0, rateLimited: 0, fenceStripped: false, ...noTokens() });

const sum = (a: number | null, b: number | null | undefined): number | null => (b === undefined || b === null ? a : (a ?? 0) + b);

/** Adds one response's usage (or another total) to `into`. */
export function addUsage(into: TokenTotals, usage: Usage): void {
  into.tokensIn = sum(into.tokensIn, usage.input);
  into.tokensOut = sum(into.tokensOut, usage.output);
  into.tokensCached = sum(into.tokensCached, usage.cached);
  into.tokensReasoning = sum(into.tokensReasoning, usage.reasoning);
}

/** A total as a Usage, to add it to another total. */
export const asUsage = (t: TokenTotals): Usage => ({
  input: t.tokensIn ?? undefined,
  output: t.tokensOut ?? undefined,
  cached: t.tokensCached ?? undefined,
  reasoning: t.tokensReasoning ?? undefined,
});

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
  };
}
