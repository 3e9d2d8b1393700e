/**
 * Budgets (issue #27 §5, docs/language/multi-agent.md): an agent's `budget_tokens` (input +
 * output tokens, cached input included) and `budget_usd` (from the models' prices) bound one
 * outside call into the agent — everything it runs, sub-agents included. Each new agent
 * method call (not a sibling call) inherits its caller's open budgets and, when its agent
 * declares one, opens its own: so a sub-agent's own budget applies to its calls, and every
 * enclosing budget counts them too.
 *
 * Usage is counted after each provider response (`chargeResponse`, from the ask flow): the
 * response that crosses a budget is not used — the work stops with a non-retryable
 * BUDGET_EXCEEDED naming the key, the limit, the amount used and the agent. A model without
 * a price costs nothing against `budget_usd` (its cost is unknown, not zero: the checker
 * cannot see prices, so this is documented rather than refused).
 */
import { runtimeError } from "../../diagnostics/luma-error";
import type { OpenBudget } from "../tools/tool-invoker-types";

/** What a response costs is read from these (structurally `ResolvedModel` and `Usage`: providers/ ranks above usage/). */
interface Priced {
  price?: { inPerMtok?: number; outPerMtok?: number };
}
interface Counted {
  input?: number;
  output?: number;
}

/** The budgets a new call into `agent` runs under: the caller's, plus the agent's own when it declares one. */
export function budgetsFor(agent: string, limits: { budgetTokens?: number; budgetUsd?: number }, inherited?: readonly OpenBudget[]): readonly OpenBudget[] | undefined {
  if (limits.budgetTokens === undefined && limits.budgetUsd === undefined) return inherited;
  const own: OpenBudget = { agent, tokens: limits.budgetTokens, usd: limits.budgetUsd, usedTokens: 0, usedUsd: 0 };
  return inherited ? [...inherited, own] : [own];
}

/** Charges one response to every open budget; throws BUDGET_EXCEEDED for the first one it crosses. */
export function chargeResponse(budgets: readonly OpenBudget[] | undefined, model: Priced, usage: Counted): void {
  if (!budgets || budgets.length === 0) return;
  const tokens = (usage.input ?? 0) + (usage.output ?? 0);
  const price = model.price;
  const usd = price ? ((usage.input ?? 0) * (price.inPerMtok ?? 0) + (usage.output ?? 0) * (price.outPerMtok ?? 0)) / 1_000_000 : 0;
  let crossed: Error | undefined;
  for (const b of budgets) {
    b.usedTokens += tokens;
    b.usedUsd += usd;
    if (crossed) continue;
    if (b.tokens !== undefined && b.usedTokens > b.tokens) {
      crossed = exceeded("budget_tokens", String(b.tokens), `${b.usedTokens} tokens`, b.agent);
    } else if (b.usd !== undefined && b.usedUsd > b.usd) {
      crossed = exceeded("budget_usd", String(b.usd), `${b.usedUsd.toFixed(6)} USD`, b.agent);
    }
  }
  if (crossed) throw crossed;
}

const exceeded = (key: string, limit: string, used: string, agent: string) =>
  runtimeError("BUDGET_EXCEEDED", `Agent '${agent}' exceeded its ${key} of ${limit}: ${used} used`, { retryable: false, details: { key, limit: Number(limit), agent } });
