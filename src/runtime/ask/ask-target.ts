/**
 * The target of `ask … -> T` (spec §7): its JSON Schema as the final response format, and
 * the way back from the model's text to a validated value.
 *
 * Providers' strict modes need an object root, so any target whose schema is not a plain
 * object (`string`, `int[]`, a tagged union's `anyOf`) is wrapped as `{ "value": T }` on the
 * wire and unwrapped on return (a recursive T's `$defs` stay at the document root).
 * Decoding: safe JSON parse (no prototype keys; an answer in a ```json fence is unfenced
 * first, answer-fence.ts), the adapter's normalisation (OpenAI: nulls of optional fields
 * dropped), unwrap, then local validation — hard issues make the answer invalid, soft ones
 * annotate it.
 */
import type { TypeRef } from "../../syntax/ast";
import { toJsonSchema } from "../../schema/json-schema";
import type { SchemaTable, ValidationIssue } from "../../schema/schema-table-types";
import type { JsonSchema, ProviderAdapter, ResponseFormat } from "../providers/provider-types";
import { tryParseJson } from "../providers/safe-json";
import { unfence } from "./answer-fence";

export interface AskTarget {
  ref: TypeRef;
  format: ResponseFormat;
  wrapped: boolean;
  /** The root of validation paths: the schema name (`Answer.score`) or `ask`. */
  root: string;
}

export function buildAskTarget(schemas: SchemaTable, ref: TypeRef): AskTarget {
  const schema = toJsonSchema(schemas.typeOf(ref)) as JsonSchema;
  const named = ref.kind === "NamedType" ? ref.name : undefined;
  const wrapped = schema.type !== "object";
  const format: ResponseFormat = wrapped ? { name: named ?? "Result", schema: wrapValue(schema) } : { name: named!, schema };
  return { ref, format, wrapped, root: named ?? "ask" };
}

/** `{ "value": T }`; a recursive T's `$defs` move to the new root, where its `#/$defs/…` refs point. */
function wrapValue(schema: JsonSchema): JsonSchema {
  const { $defs, ...value } = schema;
  const root: JsonSchema = { type: "object", additionalProperties: false, required: ["value"], properties: { value } };
  if ($defs !== undefined) root.$defs = $defs;
  return root;
}

export type Verdict =
  | { ok: true; value: unknown; soft: readonly ValidationIssue[]; /** The JSON came inside a ``` fence. */ unfenced: boolean }
  | { ok: false; reason: string };

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

export function decodeAnswer(text: string, target: AskTarget, adapter: ProviderAdapter, schemas: SchemaTable): Verdict {
  if (text.trim() === "") return { ok: false, reason: "The answer was empty; a JSON value was expected." };
  let parsed = tryParseJson(text);
  let unfenced = false;
  if (!parsed.ok) {
    const inner = unfence(text);
    const retried = inner === undefined ? undefined : tryParseJson(inner);
    if (retried?.ok) [parsed, unfenced] = [retried, true];
  }
  if (!parsed.ok) return { ok: false, reason: sentence(`The answer is not valid JSON (${parsed.error})`) };
  let value = adapter.normaliseFinal(target.format, parsed.value);
  if (target.wrapped) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, "value")) {
      return { ok: false, reason: 'The answer must be a JSON object with a single "value" field.' };
    }
    value = (value as Record<string, unknown>).value;
  }
  const r = schemas.validate(target.ref, value, "output", target.root);
  if (!r.ok) return { ok: false, reason: r.hard.map((i) => sentence(i.message)).join(" ") || `${target.root} is invalid.` };
  return { ok: true, value: r.value, soft: r.soft, unfenced };
}
