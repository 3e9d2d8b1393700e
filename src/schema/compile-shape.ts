/**
 * AST → Shape (spec §2, §3). Named schemas and tagged unions are compiled once, on first
 * use, and shared by every reference (the "inline the referenced schema" of JSON Schema,
 * without copying). A field's annotations produce the field's own copy of its type's
 * shape via `annotateField`.
 *
 * The checker has already rejected unknown names, recursion and bad annotations; if one
 * arrives anyway it becomes a startup LumaError at its span (a `compiling` stack guards
 * the recursion so nothing loops).
 */
import type { Field, Program, SchemaDecl, Span, TypeRef, UnionDecl } from "../syntax/ast";
import { plainBase, type FieldShape, type ObjectShape, type ScalarKind, type ScalarShape, type Shape, type UnionShape } from "./shape";
import { annotateField } from "./annotate-field";
import { schemaError } from "./schema-error";

export interface ShapeCompiler {
  /** The shape of a declared schema or tagged union, or undefined when not declared. */
  named(name: string): Shape | undefined;
  ofType(ref: TypeRef): Shape;
  /** An object shape from a parameter list (tool / query / command inputs). */
  objectOf(name: string, fields: readonly Field[]): ObjectShape;
}

const SCALARS = new Map<ScalarKind, ScalarShape>(
  (["string", "int", "float", "bool", "any"] as const).map((kind) => [kind, { kind, ...plainBase() }]),
);

export function createShapeCompiler(program: Program): ShapeCompiler {
  const decls = new Map<string, SchemaDecl | UnionDecl>();
  for (const decl of program.decls) {
    if (decl.kind !== "Schema" && decl.kind !== "Union") continue;
    if (decls.has(decl.name)) throw schemaError(`Duplicate schema '${decl.name}'.`, decl.nameSpan);
    decls.set(decl.name, decl);
  }
  const done = new Map<string, Shape>();
  const compiling: string[] = [];

  function namedShape(name: string, span?: Span): Shape {
    const cached = done.get(name);
    if (cached) return cached;
    const decl = decls.get(name);
    if (!decl) throw schemaError(`Unknown schema '${name}'.`, span);
    if (compiling.includes(name)) {
      const cycle = [...compiling.slice(compiling.indexOf(name)), name];
      throw schemaError(`Schema '${name}' is recursive: ${cycle.join(" -> ")}.`, span ?? decl.nameSpan);
    }
    compiling.push(name);
    try {
      const shape = decl.kind === "Schema" ? objectOf(decl.name, decl.fields) : unionOf(decl);
      done.set(name, shape);
      return shape;
    } finally {
      compiling.pop();
    }
  }

  function ofType(ref: TypeRef): Shape {
    switch (ref.kind) {
      case "PrimType": {
        const shape = SCALARS.get(ref.name);
        if (!shape) throw schemaError(`Unknown type '${ref.name}'.`, ref.span);
        return shape;
      }
      case "EnumType":
        return { kind: "enum", values: [...ref.values], ...plainBase() };
      case "ArrayType": {
        const element = ofType(ref.element);
        return { kind: "array", element, ...plainBase(element.needsPrepare) };
      }
      case "NamedType":
        return namedShape(ref.name, ref.span);
      default:
        throw schemaError(`Unsupported type reference.`, (ref as { span?: Span }).span);
    }
  }

  function objectOf(name: string, fields: readonly Field[]): ObjectShape {
    const shapes: FieldShape[] = [];
    const names = new Set<string>();
    for (const field of fields) {
      if (names.has(field.name)) throw schemaError(`Duplicate field '${field.name}' in ${name}.`, field.nameSpan);
      names.add(field.name);
      const shape = annotateField(field, ofType(field.type));
      shapes.push({ name: field.name, required: !field.optional && !shape.hasDefault, shape });
    }
    return { kind: "object", name, fields: shapes, fieldNames: names, ...plainBase(shapes.some((f) => f.shape.needsPrepare)) };
  }

  function unionOf(decl: UnionDecl): UnionShape {
    const members: ObjectShape[] = [];
    for (const m of decl.members) {
      const target = decls.get(m.name);
      if (target?.kind === "Union") {
        throw schemaError(`Member '${m.name}' of schema '${decl.name}' must be a plain schema, not a tagged union.`, m.span);
      }
      if (members.some((x) => x.name === m.name)) throw schemaError(`Duplicate member '${m.name}' in ${decl.name}.`, m.span);
      const shape = namedShape(m.name, m.span) as ObjectShape;
      if (shape.fieldNames.has(decl.tag)) {
        throw schemaError(`Tag '${decl.tag}' of schema '${decl.name}' clashes with a field of member '${m.name}'.`, decl.tagSpan);
      }
      members.push(shape);
    }
    if (members.length === 0) throw schemaError(`Schema '${decl.name}' has no members.`, decl.nameSpan);
    return {
      kind: "union",
      name: decl.name,
      tag: decl.tag,
      members,
      memberByName: new Map(members.map((m) => [m.name, m])),
      ...plainBase(true), // input values are tagged in `prepare`
    };
  }

  return {
    named: (name) => (decls.has(name) ? namedShape(name) : undefined),
    ofType,
    objectOf,
  };
}
