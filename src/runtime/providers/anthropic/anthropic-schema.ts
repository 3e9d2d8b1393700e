/**
 * Anthropic's structured-output / strict-tool schema subset (wire notes §3.4,
 * docs/providers/strict-schemas.md): objects keep `additionalProperties: false`, optional properties are
 * allowed, and keywords the API does not enforce (numeric and length bounds, `maxItems`,
 * `minItems` above 1, `default`, unlisted formats) are moved into `description` as text —
 * what Anthropic's own SDK does (`transformJSONSchema`, schema-subset.ts). The model still
 * reads them; Luma still validates them locally. A recursive schema's `$defs` are converted
 * the same way; it only ever goes in a non-strict tool (strict mode takes no recursion,
 * §3.4), so `$ref`s keep their sibling keywords.
 *
 * `pattern` stays a keyword only inside the regex subset Anthropic documents (quantifiers,
 * simple `{n,m}`, classes, groups, anchors); a pattern with a backreference, a lookaround,
 * a word boundary or a large `{n,m}` range goes into the description instead, as the SDK
 * does with every pattern — a grammar the API cannot compile is a 400 on every request.
 * Luma's `any` (`{}`) names no type, which the SDK's converter refuses: a tool with one
 * goes non-strict (anthropic-messages.ts), an answer with one is rejected at start-up
 * (`formatProblem` below, through ask/ask-format-support.ts).
 */
import type { JsonSchema } from "../provider-types";
import { overBudget, STRICT_BUDGET, strictCost } from "./anthropic-strict-budget";
import { isStrictCompatible, keepRule, reduceToSubset } from "../schema-subset";

const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]);

/** Documented as unsupported: backreferences, lookahead/lookbehind, \b \B. */
const OUTSIDE_SUBSET = /\\[1-9]|\\k<|\(\?<?[=!]|\\[bB]/;
/** "Complex {n,m} quantifiers with large ranges": Luma reads "large" as a bound above this. */
export const MAX_QUANTIFIER_BOUND = 100;

export function inAnthropicRegexSubset(pattern: string): boolean {
  if (OUTSIDE_SUBSET.test(pattern)) return false;
  for (const m of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) {
    if (Number(m[1]) > MAX_QUANTIFIER_BOUND || (m[2] !== undefined && (m[2] === "" ? false : Number(m[2]) > MAX_QUANTIFIER_BOUND))) return false;
  }
  return true;
}

const KEEP = keepRule(
  ["type", "properties", "required", "items", "anyOf", "allOf", "$ref", "$defs", "title", "additionalProperties", "enum", "const"],
  {
    format: (v) => typeof v === "string" && FORMATS.has(v),
    minItems: (v) => v === 0 || v === 1,
    pattern: (v) => typeof v === "string" && inAnthropicRegexSubset(v),
  },
);

export function toAnthropicSchema(schema: JsonSchema): JsonSchema {
  return reduceToSubset(schema, KEEP) as JsonSchema;
}

/** Why `output_config.format` cannot take this answer schema (it is always strict), if it cannot. */
export function anthropicFormatProblem(schema: JsonSchema): string | undefined {
  if (!isStrictCompatible(schema)) return "it has a field of type `any`, and Anthropic's structured output needs every sub-schema to name a type";
  const cost = strictCost(toAnthropicSchema(schema));
  if (overBudget(cost)) {
    return (
      `it has ${cost.optional} optional and ${cost.union} union-typed fields, over Anthropic's budget for strict schemas ` +
      `(${STRICT_BUDGET.optional} optional, ${STRICT_BUDGET.union} union-typed per request)`
    );
  }
  return undefined;
}
