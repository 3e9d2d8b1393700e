/**
 * `--usage`: the per-model summary printed on stderr when a run ends (also when it fails —
 * the tokens were spent). Plain aligned columns, numbers right-aligned; a `cost (USD)`
 * column only when some model has a price; `-` for a count no provider reported.
 *
 *   usage      provider  asks  requests  input  cached  output  reasoning
 *   GPT54Mini  openai       1         3    130       -      17          -
 *   total                   1         3    130       -      17          -
 *
 * A run whose asks came from more than one agent (agents as tools, issue #27 §1) also has a
 * row per agent (`agent Triage`), each counting that agent's own asks and requests; the
 * total counts all of them once.
 */
import type { UsageLedger, UsageRow } from "./usage-ledger";

const count = (v: number | null): string => (v === null ? "-" : String(v));
const usd = (v: number | null): string => (v === null ? "-" : v.toFixed(6));

export function usageTable(ledger: UsageLedger): string[] {
  const models = ledger.byModel();
  const withCost = models.some((m) => m.cost !== null);
  const head = ["usage", "provider", "asks", "requests", "input", "cached", "output", "reasoning", ...(withCost ? ["cost (USD)"] : [])];
  const cells = (name: string, provider: string, r: UsageRow) => [
    name,
    provider,
    String(r.asks),
    String(r.requests),
    count(r.tokensIn),
    count(r.tokensCached),
    count(r.tokensOut),
    count(r.tokensReasoning),
    ...(withCost ? [usd(r.cost)] : []),
  ];
  const agents = ledger.byAgent();
  const agentRows = agents.length > 1 ? agents.map((a) => cells(`agent ${a.agent}`, "", a)) : [];
  const rows = [head, ...models.map((m) => cells(m.model, m.provider, m)), ...agentRows, cells("total", "", ledger.total())];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  // The first two columns are names (left-aligned), the rest numbers (right-aligned).
  return rows.map((r) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd());
}
