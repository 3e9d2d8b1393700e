/**
 * Anthropic's structured-output / strict-tool schema subset (PROVIDERS.md §3.4): objects
 * keep `additionalProperties: false`, optional properties are allowed, and keywords the API
 * does not enforce (numeric and length bounds, `maxItems`, `minItems` above 1, `default`,
 * unlisted formats) are moved into `description` as text — what Anthropic's own SDK does.
 * The model still reads them; Luma still validates them locally. A recursive schema's
 * `$defs` are converted the same way; it only ever goes in a non-strict tool (strict mode
 * takes no recursion, §3.4), so `$ref`s keep their sibling keywords.
 */
import type { JsonSchema } from "./provider-types";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const KEPT = new Set([
  "type", "properties", "required", "items", "anyOf", "allOf", "$ref", "$defs", "description", "title",
  "additionalProperties", "enum", "const", "pattern",
]);
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]);

export function toAnthropicSchema(schema: JsonSchema): JsonSchema {
  return convert(schema) as JsonSchema;
}

function convert(s: unknown): unknown {
  if (!isObj(s)) return s;
  const out: Obj = {};
  const moved: string[] = [];
  for (const [key, v] of Object.entries(s)) {
    if (KEPT.has(key)) out[key] = v;
    else if (key === "format" && typeof v === "string" && FORMATS.has(v)) out[key] = v;
    else if (key === "minItems" && (v === 0 || v === 1)) out[key] = v;
    else moved.push(`${key}: ${JSON.stringify(v)}`);
  }
  if (isObj(out.properties)) {
    const props: Obj = {};
    for (const [k, sub] of Object.entries(out.properties)) props[k] = convert(sub);
    out.properties = props;
  }
  if (out.items !== undefined) out.items = convert(out.items);
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map(convert);
  if (isObj(out.$defs)) out.$defs = Object.fromEntries(Object.entries(out.$defs).map(([k, d]) => [k, convert(d)]));
  if (moved.length > 0) {
    const note = `{${moved.join(", ")}}`;
    out.description = typeof out.description === "string" ? `${out.description}\n\n${note}` : note;
  }
  return out;
}
