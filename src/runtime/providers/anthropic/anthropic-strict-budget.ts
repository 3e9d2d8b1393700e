/**
 * Anthropic's per-request budgets for strict schemas (wire notes §3.4, docs/providers/strict-schemas.md):
 * at most 20 strict tools, 24 optional parameters and 16 union-typed parameters across all
 * strict schemas of one request (the structured-output format included). Past a budget the
 * API rejects the whole request, so Luma stays inside it: the answer format is counted
 * first (it is always strict), then tools in declaration order keep `strict: true` while
 * they fit; a tool that does not fit goes with `strict: false` — same schema, arguments
 * still validated locally, as every tool input is. A format that alone is over a budget
 * cannot be sent at all: start-up rejects it (anthropic-schema.ts `anthropicFormatProblem`).
 *
 * Counting: an optional parameter is a property left out of its object's `required`; a
 * union-typed one is a property whose schema is an `anyOf` or a list of types — at any
 * depth (strict schemas hold no `$ref`s to follow).
 */
type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export const STRICT_BUDGET = { tools: 20, optional: 24, union: 16 } as const;

export interface StrictCost {
  optional: number;
  union: number;
}

export function strictCost(schema: unknown, cost: StrictCost = { optional: 0, union: 0 }): StrictCost {
  if (!isObj(schema)) return cost;
  if (isObj(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (!required.has(key)) cost.optional++;
      if (isObj(sub) && (Array.isArray(sub.anyOf) || Array.isArray(sub.type))) cost.union++;
      strictCost(sub, cost);
    }
  }
  if (schema.items !== undefined) strictCost(schema.items, cost);
  if (Array.isArray(schema.anyOf)) for (const m of schema.anyOf) strictCost(m, cost);
  return cost;
}

export const overBudget = (c: StrictCost): boolean => c.optional > STRICT_BUDGET.optional || c.union > STRICT_BUDGET.union;

/** The tools as sent: strict ones past a budget are copies with `strict: false`. */
export function withinStrictBudget(tools: readonly Obj[], format: unknown): Obj[] {
  const used: StrictCost = format === undefined ? { optional: 0, union: 0 } : strictCost(format);
  let strictTools = 0;
  return tools.map((tool) => {
    if (tool.strict !== true) return tool;
    const cost = strictCost(tool.input_schema);
    const next = { optional: used.optional + cost.optional, union: used.union + cost.union };
    if (strictTools >= STRICT_BUDGET.tools || overBudget(next)) return { ...tool, strict: false };
    strictTools++;
    Object.assign(used, next);
    return tool;
  });
}
