/**
 * OpenAI strict mode (wire notes §1.4): every property listed in `required`, so an optional
 * field is sent as required-and-nullable (`anyOf: [T, {"type":"null"}]`); on the way back the
 * `null` of such a field is dropped before local validation (spec §7), so the program sees
 * exactly what it declared.
 *
 * `strict: true` also needs every sub-schema to say what it is; Luma's `any` is `{}`, which
 * strict mode rejects — such a schema goes with `strict: false` (still the same schema).
 *
 * Recursive schemas go as OpenAI documents them: definitions under `$defs`, local `$ref`s
 * (bare: see schema-refs.ts), each definition made strict like the root. Dropping nulls
 * follows the `$ref`s into the definitions, to the depth the answer has (bounded: a deeper
 * answer is rejected by validation anyway).
 *
 * Only the keywords OpenAI's strict subset supports are sent as keywords (docs/providers/strict-schemas.md:
 * `pattern` and the listed `format`s for strings, `minimum`/`maximum`/`exclusive…`/`multipleOf`
 * for numbers, `minItems`/`maxItems` for arrays, besides the structural ones); everything else —
 * `default`, `minLength`/`maxLength`, a `format` such as `uri` that the API rejects with a
 * 400 — goes into the node's `description` as text (schema-subset.ts), and Luma's local
 * validation still enforces it. The documented size limits are checked at start-up
 * (openai-schema-limits.ts).
 */
import { MAX_JSON_DEPTH } from "../../../schema/json-data";
import type { JsonSchema } from "../provider-types";
import { bareRefs, resolveRef } from "../schema-refs";
import { keepRule, reduceToSubset } from "../schema-subset";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The string formats the strict subset documents; any other is a 400 (`uri`, for one). */
export const OPENAI_FORMATS: ReadonlySet<string> = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

const KEEP = keepRule(
  [
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "$ref", "$defs", "title",
    "pattern", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
  ],
  { format: (v) => typeof v === "string" && OPENAI_FORMATS.has(v) },
);

export function toOpenAiStrict(schema: JsonSchema): JsonSchema {
  return strictify(reduceToSubset(bareRefs(schema), KEEP)) as JsonSchema;
}

function strictify(s: unknown): unknown {
  if (!isObj(s)) return s;
  const out: Obj = { ...s };
  if (isObj(s.properties)) {
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const props: Obj = {};
    for (const [key, sub] of Object.entries(s.properties)) {
      const converted = strictify(sub);
      props[key] = required.has(key) ? converted : { anyOf: [converted, { type: "null" }] };
    }
    out.properties = props;
    out.required = Object.keys(props);
  }
  if (s.items !== undefined) out.items = strictify(s.items);
  if (Array.isArray(s.anyOf)) out.anyOf = s.anyOf.map(strictify);
  if (isObj(s.$defs)) out.$defs = Object.fromEntries(Object.entries(s.$defs).map(([k, d]) => [k, strictify(d)]));
  return out;
}

/**
 * Drops, in place, the `null` of every field the ORIGINAL schema leaves optional. The value
 * is freshly parsed model output, owned by the caller.
 */
export function dropOptionalNulls(schema: unknown, value: unknown): void {
  if (isObj(schema)) dropNulls(schema, value, schema.$defs, 0);
}

function dropNulls(node: unknown, value: unknown, defs: unknown, depth: number): void {
  if (!isObj(node) || depth > MAX_JSON_DEPTH) return;
  const schema = resolveRef(node, defs) ?? node;
  if (Array.isArray(value)) {
    if (schema.items !== undefined) for (const item of value) dropNulls(schema.items, item, defs, depth + 1);
    return;
  }
  if (!isObj(value)) return;
  if (Array.isArray(schema.anyOf)) {
    for (const member of schema.anyOf) if (constsMatch(resolveRef(member as Obj, defs) ?? member, value)) dropNulls(member, value, defs, depth + 1);
    return;
  }
  if (!isObj(schema.properties)) return;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const [key, sub] of Object.entries(schema.properties)) {
    if (!Object.hasOwn(value, key)) continue;
    if (value[key] === null && !required.includes(key)) delete value[key];
    else dropNulls(sub, value[key], defs, depth + 1);
  }
}

/** A tagged-union member applies when its `const` properties (the tag) match the value. */
function constsMatch(member: unknown, value: Obj): boolean {
  if (!isObj(member) || !isObj(member.properties)) return false;
  for (const [key, sub] of Object.entries(member.properties)) {
    if (isObj(sub) && sub.const !== undefined && value[key] !== sub.const) return false;
  }
  return true;
}
