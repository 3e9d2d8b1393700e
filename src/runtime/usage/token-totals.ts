/**
 * Token totals: the four counts (in, out, cached, reasoning) an `ask` sums over its provider
 * responses and the run's usage ledger sums over its asks. A count no response reported
 * stays null (unknown is not zero). Here, below `ask`, so the ledger (usage-ledger.ts) and
 * the ask trace event (ask/ask-trace.ts) share one sum without the ledger importing `ask`.
 */
import type { Usage } from "../providers/provider-types";

export interface TokenTotals {
  tokensIn: number | null;
  tokensOut: number | null;
  tokensCached: number | null;
  tokensReasoning: number | null;
}

export const noTokens = (): TokenTotals => ({ tokensIn: null, tokensOut: null, tokensCached: null, tokensReasoning: null });

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
