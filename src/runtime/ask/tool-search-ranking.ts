/**
 * The lexical ranking behind `search_tools` (lazy tools, docs/language/tools.md "Lazy tools"):
 * which lazy tools best match the words of a query, by their name, their parameters' names
 * and their description. Pure and deterministic — the same query over the same tools always
 * gives the same list in the same order — because a resumed journaled run re-answers the
 * searches of its replayed provider answers and must find exactly what the first run found.
 *
 * Tokens: a text is split at every character that is not a letter or digit, at snake_case
 * underscores and at camelCase humps (`getOrderStatus` → get, order, status), lowercased,
 * and reduced by a small plural rule (`refunds` → refund, `entries` → entry, `addresses` →
 * address; `status` stays). A token of one character, and a few filler words ("a", "the",
 * "to" …), are dropped.
 *
 * Score of a tool for a query: for each distinct query token t found in the tool,
 * `idf(t) × (3 if in the name + 2 if in a parameter name + 1 if in the description)`, with
 * `idf(t) = ln(1 + N / df(t))` over the N lazy tools (df: how many of them contain t). A tool
 * scoring 0 is not listed; ties keep the agent's `tools` order; at most SEARCH_RESULT_LIMIT.
 */
import type { JsonSchema, ToolSpec } from "../providers/provider-types";

/** The most tools one `search_tools` result lists. */
export const SEARCH_RESULT_LIMIT = 5;

const WEIGHT = { name: 3, parameter: 2, description: 1 } as const;
const FILLER = new Set(["an", "and", "the", "to", "of", "for", "in", "on", "or", "is", "it", "by", "with", "from", "that", "this", "tool", "tools"]);

/** One lazy tool's token sets, per field. */
export interface IndexedTool {
  spec: ToolSpec;
  name: ReadonlySet<string>;
  parameter: ReadonlySet<string>;
  description: ReadonlySet<string>;
}

export interface SearchIndex {
  tools: readonly IndexedTool[];
  /** df: how many tools contain each token (any field). */
  frequency: ReadonlyMap<string, number>;
}

/** English plurals, the common cases: entries → entry, addresses → address, boxes → box, orders → order (status stays). */
const singular = (t: string): string => {
  if (t.length > 4 && t.endsWith("ies")) return `${t.slice(0, -3)}y`;
  if (/(sses|xes|ches|shes)$/.test(t)) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith("s") && !/(ss|us|is)$/.test(t)) return t.slice(0, -1);
  return t;
};

export function tokens(text: string): string[] {
  const spaced = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase();
  return spaced
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 1 && !FILLER.has(t))
    .map(singular);
}

/** Every property name in a parameters schema, nested objects and array items included. */
function parameterNames(schema: unknown, into: string[] = []): string[] {
  if (typeof schema !== "object" || schema === null) return into;
  const s = schema as JsonSchema;
  if (typeof s.properties === "object" && s.properties !== null) {
    for (const [name, sub] of Object.entries(s.properties as Record<string, unknown>)) {
      into.push(name);
      parameterNames(sub, into);
    }
  }
  if (s.items !== undefined) parameterNames(s.items, into);
  for (const key of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(s[key])) for (const sub of s[key] as unknown[]) parameterNames(sub, into);
  return into;
}

export function buildSearchIndex(specs: readonly ToolSpec[]): SearchIndex {
  const frequency = new Map<string, number>();
  const tools = specs.map((spec): IndexedTool => {
    const tool = {
      spec,
      name: new Set(tokens(spec.name)),
      parameter: new Set(parameterNames(spec.parameters).flatMap(tokens)),
      description: new Set(tokens(spec.description ?? "")),
    };
    for (const t of new Set([...tool.name, ...tool.parameter, ...tool.description])) frequency.set(t, (frequency.get(t) ?? 0) + 1);
    return tool;
  });
  return { tools, frequency };
}

/**
 * The best-matching tools for a query, best first (see the file's opening paragraph); `listable`
 * leaves out tools this `ask` may not offer (their idf still counts: scores do not depend on it).
 */
export function rankTools(index: SearchIndex, query: string, listable: (spec: ToolSpec) => boolean = () => true): ToolSpec[] {
  const words = [...new Set(tokens(query))];
  const n = index.tools.length;
  const scored: { spec: ToolSpec; score: number; order: number }[] = [];
  index.tools.forEach((tool, order) => {
    let score = 0;
    for (const t of words) {
      const weight = (tool.name.has(t) ? WEIGHT.name : 0) + (tool.parameter.has(t) ? WEIGHT.parameter : 0) + (tool.description.has(t) ? WEIGHT.description : 0);
      if (weight > 0) score += Math.log(1 + n / index.frequency.get(t)!) * weight;
    }
    if (score > 0 && listable(tool.spec)) scored.push({ spec: tool.spec, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, SEARCH_RESULT_LIMIT).map((s) => s.spec);
}
