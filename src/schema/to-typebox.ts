/**
 * Shape → TypeBox (spec §2 table, §3 keywords). The result is used three ways: compiled by
 * TypeCompiler for validation, exported as the JSON Schema a model receives, and (via the
 * same shapes) mirrored by the issue walker.
 *
 * - objects: `additionalProperties: false`; a field is in `required` unless written
 *   `name?:` or given a `@default`;
 * - a tagged union is `anyOf` of its members, each an object whose tag property is a
 *   `const` of the member name and required;
 * - field annotations become `description`, `default` and the constraint keywords;
 * - a recursive schema (one that reaches itself, `def.recursive`) is written once, under
 *   the document's `$defs`, and every use of it is `{"$ref": "#/$defs/<Name>"}` — standard
 *   JSON Schema that OpenAI strict mode and Gemini take as is. A document whose root is
 *   itself recursive has its structure at the root (providers want an object root) and the
 *   same structure in `$defs` for the references inside it.
 *
 * `toTypeBox` is a shape as part of a larger schema; `toTypeBoxDocument` is a whole
 * document (with its `$defs`) and `referencesOf` the `$id`-named copies of those
 * definitions TypeCompiler resolves the `$ref`s against — it compiles each into one
 * named function that calls itself, so a recursive check is as fast as a flat one.
 *
 * Every shape is converted once (WeakMap); a named schema's structure is built once and
 * shared by all fields that reference it, annotated fields adding their keywords on a
 * shallow copy.
 */
import { Type, type SchemaOptions, type TObject, type TProperties, type TSchema } from "@sinclair/typebox";
import type { FieldShape, ObjectShape, Shape, UnionShape } from "./shape";
import { lumaEnum } from "./typebox-registry";

const converted = new WeakMap<Shape, TSchema>();
/** Keyed by the field list, which every annotated copy of a named schema shares. */
const objects = new WeakMap<readonly FieldShape[], TObject>();
const unions = new WeakMap<readonly ObjectShape[], TSchema>();
/**
 * On each `$ref` node, the recursive schema it names. A symbol key, so it survives the
 * shallow copies TypeBox makes (`Type.Optional`) and never reaches JSON.
 */
const REF_TARGET = Symbol("luma.refTarget");
const documents = new WeakMap<Shape, TSchema>();
const references = new WeakMap<TSchema, TSchema[]>();

/** Where a recursive schema lives in its document. */
export const defPointer = (name: string): string => `#/$defs/${name}`;

const isRecursive = (shape: Shape): shape is ObjectShape | UnionShape =>
  (shape.kind === "object" || shape.kind === "union") && shape.def?.recursive === true;

export function toTypeBox(shape: Shape): TSchema {
  let schema = converted.get(shape);
  if (!schema) {
    if (isRecursive(shape)) {
      schema = { ...Type.Ref(defPointer(shape.def!.name), options(shape)), [REF_TARGET]: shape };
    } else schema = build(shape);
    converted.set(shape, schema);
  }
  return schema;
}

/** A whole JSON Schema document: the shape at the root, plus `$defs` when a recursive schema is used. */
export function toTypeBoxDocument(shape: Shape): TSchema {
  let doc = documents.get(shape);
  if (!doc) {
    const root = isRecursive(shape) ? withOptions(structureOf(shape), options(shape)) : toTypeBox(shape);
    const defs = definitionsUsedBy(root);
    doc = Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
    documents.set(shape, doc);
  }
  return doc;
}

/** The document's definitions, each with the `$id` its `$ref`s name, for TypeCompiler. */
export function referencesOf(doc: TSchema): TSchema[] {
  let refs = references.get(doc);
  if (!refs) {
    const defs = (doc.$defs ?? {}) as Record<string, TSchema>;
    refs = Object.entries(defs).map(([name, def]) => ({ ...def, $id: defPointer(name) }));
    references.set(doc, refs);
  }
  return refs;
}

/** Every recursive schema reachable from `root` through `$ref`s, in the order first met. */
function definitionsUsedBy(root: TSchema): Record<string, TSchema> {
  const defs: Record<string, TSchema> = {};
  const seen = new Set<TSchema>();
  const stack: TSchema[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const target = (node as { [REF_TARGET]?: ObjectShape | UnionShape })[REF_TARGET];
    if (target) {
      if (!(target.def!.name in defs)) stack.push((defs[target.def!.name] = structureOf(target)));
      continue;
    }
    // Only the keywords Luma writes that hold schemas: properties, items, anyOf.
    if (node.properties) stack.push(...(Object.values(node.properties) as TSchema[]).reverse());
    if (node.items) stack.push(node.items as TSchema);
    if (Array.isArray(node.anyOf)) stack.push(...(node.anyOf as TSchema[]).slice().reverse());
  }
  return defs;
}

function options(shape: Shape): SchemaOptions {
  const opts: SchemaOptions = {};
  if (shape.description !== undefined) opts.description = shape.description;
  if (shape.hasDefault) opts.default = shape.default;
  for (const c of shape.constraints) opts[c.keyword] = c.limit;
  return opts;
}

const withOptions = (structure: TSchema, opts: SchemaOptions): TSchema =>
  Object.keys(opts).length > 0 ? { ...structure, ...opts } : structure;

function build(shape: Shape): TSchema {
  const opts = options(shape);
  switch (shape.kind) {
    case "string":
      return Type.String(opts);
    case "int":
      return Type.Integer(opts);
    case "float":
      return Type.Number(opts);
    case "bool":
      return Type.Boolean(opts);
    case "any":
      return Type.Unknown(opts);
    case "enum":
      return lumaEnum(shape.values, opts);
    case "array":
      return Type.Array(toTypeBox(shape.element), opts);
    case "object":
    case "union":
      return withOptions(structureOf(shape), opts);
  }
}

/** A named schema's own structure, shared by the schema and its annotated copies. */
function structureOf(shape: ObjectShape | UnionShape): TSchema {
  return shape.kind === "object" ? objectStructure(shape) : unionStructure(shape);
}

function unionStructure(shape: UnionShape): TSchema {
  let structure = unions.get(shape.members);
  if (!structure) {
    structure = Type.Union(
      shape.members.map((m) =>
        Type.Object({ [shape.tag]: Type.Literal(m.name), ...objectStructure(m).properties }, { additionalProperties: false }),
      ),
    );
    unions.set(shape.members, structure);
  }
  return structure;
}

function objectStructure(shape: ObjectShape): TObject {
  let structure = objects.get(shape.fields);
  if (!structure) {
    const props: TProperties = {};
    for (const f of shape.fields) props[f.name] = f.required ? toTypeBox(f.shape) : Type.Optional(toTypeBox(f.shape));
    structure = Type.Object(props, { additionalProperties: false });
    objects.set(shape.fields, structure);
  }
  return structure;
}
