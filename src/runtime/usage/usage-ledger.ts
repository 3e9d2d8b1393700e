/**
 * Run-wide token usage: every finished `ask` (answered or failed — the tokens were spent
 * either way) adds its totals under its model and under its agent. At the end of a run the
 * ledger becomes one `run.usage` trace event and, with `--usage`, the table on stderr
 * (usage-table.ts).
 *
 * Cost is tokens × the model's `price_in_per_mtok` / `price_out_per_mtok` (USD per million
 * tokens); cached and reasoning tokens are billed as part of input and output, as the two
 * prices say nothing finer. A model without a price has no cost (null), and neither has a
 * total that includes one (a partial sum would look like the whole bill).
 */
import type { ResolvedModel } from "../providers/provider-types";
import { addUsage, asUsage, noTokens, type TokenTotals } from "./token-totals";

export interface UsageRow extends TokenTotals {
  asks: number;
  requests: number;
  /** USD; null when the model has no price (or, in a total, when one of its models has none). */
  cost: number | null;
}

export interface ModelUsage extends UsageRow {
  model: string;
  provider: string;
}

export interface UsageLedger {
  /** `asks`: 1 for the agent an ask started with, 0 for an agent it was handed to (its requests still count). */
  add(agent: string, model: ResolvedModel, ask: TokenTotals & { turns: number }, asks?: number): void;
  readonly empty: boolean;
  byModel(): ModelUsage[];
  byAgent(): (UsageRow & { agent: string })[];
  total(): UsageRow;
}

const newRow = (): UsageRow => ({ asks: 0, requests: 0, cost: 0, ...noTokens() });

function costOf(model: ResolvedModel, t: TokenTotals): number | null {
  const p = model.price;
  if (p === undefined) return null;
  return ((t.tokensIn ?? 0) * (p.inPerMtok ?? 0) + (t.tokensOut ?? 0) * (p.outPerMtok ?? 0)) / 1_000_000;
}

function addRow(into: UsageRow, ask: TokenTotals, requests: number, cost: number | null, asks = 1): void {
  into.asks += asks;
  into.requests += requests;
  addUsage(into, asUsage(ask));
  into.cost = into.cost === null || cost === null ? null : into.cost + cost;
}

export function createUsageLedger(): UsageLedger {
  const models = new Map<string, ModelUsage>();
  const agents = new Map<string, UsageRow & { agent: string }>();
  return {
    add(agent, model, ask, asks = 1) {
      const cost = costOf(model, ask);
      let m = models.get(model.decl);
      if (!m) models.set(model.decl, (m = { model: model.decl, provider: model.provider, ...newRow() }));
      addRow(m, ask, ask.turns, cost, asks);
      let a = agents.get(agent);
      if (!a) agents.set(agent, (a = { agent, ...newRow() }));
      addRow(a, ask, ask.turns, cost, asks);
    },
    get empty() {
      return models.size === 0;
    },
    byModel: () => [...models.values()],
    byAgent: () => [...agents.values()],
    total() {
      const t = newRow();
      for (const m of models.values()) addRow(t, m, m.requests, m.cost, m.asks);
      return t;
    },
  };
}

/** The `run.usage` trace event: the same numbers as the table, snake_case like every event. */
export function runUsageEvent(ledger: UsageLedger): object {
  const row = (r: UsageRow) => ({
    asks: r.asks,
    requests: r.requests,
    tokens_in: r.tokensIn,
    tokens_out: r.tokensOut,
    tokens_cached: r.tokensCached,
    tokens_reasoning: r.tokensReasoning,
    cost_usd: r.cost,
  });
  return {
    event: "run.usage",
    models: ledger.byModel().map((m) => ({ model: m.model, provider: m.provider, ...row(m) })),
    agents: ledger.byAgent().map((a) => ({ agent: a.agent, ...row(a) })),
    total: row(ledger.total()),
  };
}
