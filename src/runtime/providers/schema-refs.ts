/**
 * Local references in a tool's or answer's JSON Schema. Luma writes a recursive schema
 * once, under the document's `$defs`, and refers to it as `{"$ref": "#/$defs/<Name>"}`
 * (schema/to-typebox.ts); a field's `@desc` or `@default` sits next to the `$ref`, which
 * JSON Schema allows. Providers differ in what a `$ref` may carry: OpenAI strict mode (its
 * SDKs never send a `$ref` with siblings) and Gemini ("a sub-schema with `$ref` may carry
 * no other non-`$` keywords", wire notes §4.4) get a bare `$ref` inside a one-member
 * `anyOf` that keeps the keywords. Anthropic's strict mode takes no recursion at all
 * (wire notes §3.4): see `recursiveFormat` on the adapters.
 */
import type { JsonSchema } from "./provider-types";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const PREFIX = "#/$defs/";

/** The document uses a recursive schema: it has definitions its `$ref`s point into. */
export const hasDefinitions = (doc: JsonSchema): boolean => isObj(doc.$defs) && Object.keys(doc.$defs).length > 0;

/** The names a document defines (the recursive schemas it uses), in document order. */
export const definitionNames = (doc: JsonSchema): string[] => (isObj(doc.$defs) ? Object.keys(doc.$defs) : []);

/** The definition a local `$ref` node names, or undefined (not a `$ref`, or dangling). */
export function resolveRef(node: Obj, defs: unknown): Obj | undefined {
  if (typeof node.$ref !== "string" || !node.$ref.startsWith(PREFIX) || !isObj(defs)) return undefined;
  const target = defs[node.$ref.slice(PREFIX.length)];
  return isObj(target) ? target : undefined;
}

/** A copy with `f` applied to every direct sub-schema Luma writes: properties, items, anyOf, $defs. */
export function mapSubschemas(s: Obj, f: (sub: unknown) => unknown): Obj {
  const out: Obj = { ...s };
  if (isObj(s.properties)) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, f(v)]));
  if (s.items !== undefined) out.items = f(s.items);
  if (Array.isArray(s.anyOf)) out.anyOf = s.anyOf.map(f);
  if (isObj(s.$defs)) out.$defs = Object.fromEntries(Object.entries(s.$defs).map(([k, v]) => [k, f(v)]));
  return out;
}

/**
 * Every `$ref` that carries other keywords is wrapped: `{"anyOf": [{"$ref": …}], …siblings}`.
 * (Inlining the definition instead, as some SDKs do, cannot end when the definition holds
 * an annotated `$ref` to itself.)
 */
export function bareRefs(doc: JsonSchema): JsonSchema {
  const visit = (s: unknown): unknown => {
    if (!isObj(s)) return s;
    if (typeof s.$ref !== "string" || Object.keys(s).length === 1) return mapSubschemas(s, visit);
    const { $ref, ...siblings } = s;
    return { anyOf: [{ $ref }], ...siblings };
  };
  return visit(doc) as JsonSchema;
}
