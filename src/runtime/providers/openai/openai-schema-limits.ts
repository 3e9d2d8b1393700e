/**
 * The size limits OpenAI documents for Structured Outputs schemas (strict tools and strict
 * `response_format`/`text.format`; docs/providers/strict-schemas.md links the page): up to 5000 object
 * properties in total, up to 10 levels of object nesting, up to 1000 enum values across all
 * enums, a string enum with more than 250 values at most 15,000 characters in total, and at
 * most 120,000 characters across all property names, definition names, enum values and
 * const values. The API answers a 400 for a schema past any of them — on every request — so
 * Luma measures the schema as it would send it and refuses at start-up, naming what is over.
 *
 * Nesting counts object schemas along a path from the root (the root is level 1); a `$defs`
 * entry is measured from its own root (a recursive reference is not unrolled).
 */
import { toOpenAiStrict } from "./openai-strict-schema";
import { isStrictCompatible } from "../schema-subset";
import type { JsonSchema } from "../provider-types";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export const OPENAI_LIMITS = {
  properties: 5000,
  depth: 10,
  enumValues: 1000,
  largeEnum: 250,
  largeEnumChars: 15_000,
  chars: 120_000,
} as const;

interface Tally {
  properties: number;
  depth: number;
  enumValues: number;
  chars: number;
  largeEnum?: number;
}

const textLength = (v: unknown): number => (typeof v === "string" ? v.length : String(v).length);

function measure(s: unknown, level: number, t: Tally): void {
  if (!isObj(s)) return;
  const isObject = isObj(s.properties);
  const here = isObject ? level + 1 : level;
  if (here > t.depth) t.depth = here;
  if (Array.isArray(s.enum)) {
    t.enumValues += s.enum.length;
    const chars = s.enum.reduce((n: number, v) => n + textLength(v), 0);
    t.chars += chars;
    if (s.enum.length > OPENAI_LIMITS.largeEnum && s.enum.every((v) => typeof v === "string") && chars > OPENAI_LIMITS.largeEnumChars) t.largeEnum = chars;
  }
  if (s.const !== undefined) t.chars += textLength(s.const);
  if (isObject) {
    for (const [key, sub] of Object.entries(s.properties as Obj)) {
      t.properties++;
      t.chars += key.length;
      measure(sub, here, t);
    }
  }
  if (s.items !== undefined) measure(s.items, here, t);
  if (Array.isArray(s.anyOf)) for (const m of s.anyOf) measure(m, here, t);
  if (isObj(s.$defs)) {
    for (const [name, def] of Object.entries(s.$defs)) {
      t.chars += name.length;
      measure(def, 0, t);
    }
  }
}

/** What is over OpenAI's documented limits in this (already strict) schema; undefined when nothing is. */
export function openAiLimitProblem(schema: JsonSchema): string | undefined {
  const t: Tally = { properties: 0, depth: 0, enumValues: 0, chars: 0 };
  measure(schema, 0, t);
  const L = OPENAI_LIMITS;
  const over: string[] = [];
  if (t.depth > L.depth) over.push(`${t.depth} levels of object nesting (limit ${L.depth})`);
  if (t.properties > L.properties) over.push(`${t.properties} object properties in total (limit ${L.properties})`);
  if (t.enumValues > L.enumValues) over.push(`${t.enumValues} enum values in total (limit ${L.enumValues})`);
  if (t.largeEnum !== undefined) over.push(`a string enum of more than ${L.largeEnum} values with ${t.largeEnum} characters (limit ${L.largeEnumChars})`);
  if (t.chars > L.chars) over.push(`${t.chars} characters of names, enum and const values (limit ${L.chars})`);
  return over.length === 0 ? undefined : `it has ${over.join(", ")}, over what OpenAI's strict mode accepts`;
}

/** A Luma schema as OpenAI strict mode would get it: over a limit? (Non-strict schemas, with `{}`, have no such limits.) */
export function openAiStrictProblem(schema: JsonSchema): string | undefined {
  const strict = toOpenAiStrict(schema);
  return isStrictCompatible(strict) ? openAiLimitProblem(strict) : undefined;
}
