/**
 * The `ask` trace event (spec §14): one per ask, after it ends. Names and counters only —
 * no prompt, no answer, no key.
 */
export interface AskStats {
  attempts: number;
  turns: number;
  toolCalls: number;
  rateLimited: number;
  tokensIn: number | null;
  tokensOut: number | null;
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
  duration_ms: number;
  outcome: "ok" | "error";
  code: string | null;
  fence_stripped: boolean;
}

export const newStats = (): AskStats => ({ attempts: 0, turns: 0, toolCalls: 0, rateLimited: 0, tokensIn: null, tokensOut: null, fenceStripped: false });

export function addUsage(stats: AskStats, usage: { input?: number; output?: number }): void {
  if (usage.input !== undefined) stats.tokensIn = (stats.tokensIn ?? 0) + usage.input;
  if (usage.output !== undefined) stats.tokensOut = (stats.tokensOut ?? 0) + usage.output;
}

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
    duration_ms: Math.round(durationMs * 1000) / 1000,
    outcome: error ? "error" : "ok",
    code: error ? (error.code ?? null) : null,
    fence_stripped: stats.fenceStripped,
  };
}
