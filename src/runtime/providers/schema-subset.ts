/**
 * One JSON Schema, reduced to the keyword subset a provider's strict mode accepts. Each
 * provider lists what it keeps (a table of keywords plus a per-value test: a `format` only
 * when the provider names it, Anthropic's `minItems` only when 0 or 1); every other keyword
 * is not sent as a keyword but written into the node's `description` as
 * `{key: value, …}` — what Anthropic's SDK (`transformJSONSchema`) does, so the model still
 * reads the constraint while the API never sees a keyword it rejects with a 400. Luma's
 * local validation runs on the original schema, so nothing moved here stops being enforced.
 *
 * The walk follows the sub-schemas Luma writes (properties, items, anyOf, $defs). A node's
 * `description` keeps its own text first; the note follows after a blank line.
 */
import { mapSubschemas } from "./schema-refs";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** May `key` (with this value, on this node) be sent as a keyword? */
export type KeepRule = (key: string, value: unknown, node: Obj) => boolean;

/** A KeepRule from a keyword list plus, for some keywords, a test of the value. */
export function keepRule(keywords: readonly string[], valueTests: Readonly<Record<string, (v: unknown) => boolean>> = {}): KeepRule {
  const kept = new Set(keywords);
  return (key, value) => (Object.hasOwn(valueTests, key) ? valueTests[key](value) : kept.has(key));
}

export function reduceToSubset(schema: unknown, keep: KeepRule): unknown {
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  const moved: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === "description" || keep(key, value, schema)) out[key] = value;
    else moved.push(`${key}: ${JSON.stringify(value)}`);
  }
  const reduced = mapSubschemas(out, (sub) => reduceToSubset(sub, keep));
  if (moved.length > 0) {
    const note = `{${moved.join(", ")}}`;
    reduced.description = typeof reduced.description === "string" ? `${reduced.description}\n\n${note}` : note;
  }
  return reduced;
}

/** Does every sub-schema name a type (or enum/const/anyOf)? `{}` (Luma's `any`) does not. Shared by OpenAI's and Anthropic's strict modes. */
export function isStrictCompatible(s: unknown): boolean {
  if (!isObj(s)) return false;
  if (s.type === undefined && s.anyOf === undefined && s.enum === undefined && s.const === undefined && s.$ref === undefined) return false;
  if (isObj(s.properties) && !Object.values(s.properties).every(isStrictCompatible)) return false;
  if (s.items !== undefined && !isStrictCompatible(s.items)) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.every(isStrictCompatible)) return false;
  if (isObj(s.$defs) && !Object.values(s.$defs).every(isStrictCompatible)) return false;
  return true;
}
