/**
 * Shape → TypeBox (spec §2 table, §3 keywords). The result is used three ways: compiled by
 * TypeCompiler for validation, exported as the JSON Schema a model receives, and (via the
 * same shapes) mirrored by the issue walker.
 *
 * - objects: `additionalProperties: false`; a field is in `required` unless written
 *   `name?:` or given a `@default`;
 * - a tagged union is `anyOf` of its members, each an object whose tag property is a
 *   `const` of the member name and required;
 * - field annotations become `description`, `default` and the constraint keywords.
 *
 * Every shape is converted once (WeakMap); a named schema's structure is built once and
 * shared by all fields that reference it, annotated fields adding their keywords on a
 * shallow copy.
 */
import { Type, type SchemaOptions, type TObject, type TProperties, type TSchema } from "@sinclair/typebox";
import type { FieldShape, ObjectShape, Shape } from "./shape";
import { lumaEnum } from "./typebox-registry";

const converted = new WeakMap<Shape, TSchema>();
/** Keyed by the field list, which every annotated copy of a named schema shares. */
const objects = new WeakMap<readonly FieldShape[], TObject>();
const unions = new WeakMap<readonly ObjectShape[], TSchema>();

export function toTypeBox(shape: Shape): TSchema {
  let schema = converted.get(shape);
  if (!schema) {
    schema = build(shape);
    converted.set(shape, schema);
  }
  return schema;
}

function options(shape: Shape): SchemaOptions {
  const opts: SchemaOptions = {};
  if (shape.description !== undefined) opts.description = shape.description;
  if (shape.hasDefault) opts.default = shape.default;
  for (const c of shape.constraints) opts[c.keyword] = c.limit;
  return opts;
}

const hasOptions = (opts: SchemaOptions): boolean => Object.keys(opts).length > 0;

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
    case "object": {
      const structure = objectStructure(shape);
      return hasOptions(opts) ? { ...structure, ...opts } : structure;
    }
    case "union": {
      let structure = unions.get(shape.members);
      if (!structure) {
        structure = Type.Union(
          shape.members.map((m) =>
            Type.Object({ [shape.tag]: Type.Literal(m.name), ...objectStructure(m).properties }, { additionalProperties: false }),
          ),
        );
        unions.set(shape.members, structure);
      }
      return hasOptions(opts) ? { ...structure, ...opts } : structure;
    }
  }
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
