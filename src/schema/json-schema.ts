/**
 * The plain JSON Schema of a TypeBox type — what a model receives as a tool's
 * `parameters` or a response format. TypeBox marks its types with symbol keys; JSON has
 * none. `type` (or `$ref`) is written first (TypeBox puts options first), so the schema reads
 * as the spec prints it: `{"type":"string","enum":["a","b"]}`. Each call returns a fresh copy,
 * which provider adapters may reshape freely.
 */
import type { TSchema } from "@sinclair/typebox";

export function toJsonSchema(schema: TSchema): Record<string, unknown> {
  return plain(schema) as Record<string, unknown>;
}

function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== "object") return v;
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if ("type" in src) out.type = src.type;
  if ("$ref" in src) out.$ref = src.$ref;
  for (const key of Object.keys(src)) if (key !== "type" && key !== "$ref" && src[key] !== undefined) out[key] = plain(src[key]);
  return out;
}
