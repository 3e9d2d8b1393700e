/**
 * AST → Shape (spec §2, §3). Named schemas and tagged unions are compiled once, on first
 * use, and shared by every reference (the "inline the referenced schema" of JSON Schema,
 * without copying). A field's annotations produce the field's own copy of its type's
 * shape via `annotateField`.
 *
 * Recursive schemas: a named shape is registered before its fields are compiled, so a
 * field that refers back to it (`replies: Comment[]`) gets that very object and the graph
 * closes on itself. Its fields and members are filled into arrays that annotated copies
 * already share. What depends on the whole graph waits until the outermost compile is
 * done ("settling"): `needsPrepare` (a default can sit further round the cycle), which
 * named shapes reach themselves (`def.recursive`), and the `@default` checks, which walk
 * the finished shapes.
 *
 * The checker has already rejected unknown names, infinite recursion and bad annotations;
 * if one arrives anyway it becomes a startup LumaError at its span.
 */
import type { Field, Program, SchemaDecl, Span, TypeRef, UnionDecl } from "../syntax/ast";
import { plainBase, type FieldShape, type ObjectShape, type ScalarKind, type ScalarShape, type Shape, type UnionShape } from "./shape";
import { annotateField } from "./annotate-field";
import { finiteTypes } from "./finite-values";
import { settleShapes } from "./settle-shapes";
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
  const schemas = new Map<string, SchemaDecl>();
  const unions = new Map<string, UnionDecl>();
  for (const decl of program.decls) {
    if (decl.kind !== "Schema" && decl.kind !== "Union") continue;
    if (decls.has(decl.name)) throw schemaError(`Duplicate schema '${decl.name}'.`, decl.nameSpan);
    decls.set(decl.name, decl);
    (decl.kind === "Schema" ? schemas : unions).set(decl.name, decl as never);
  }
  let finite: Set<string> | undefined;
  const done = new Map<string, Shape>();

  // One batch per outermost compile: the shapes it made and the checks that wait for them.
  let depth = 0;
  let made: Shape[] = [];
  let deferred: (() => void)[] = [];
  function batch<T>(compile: () => T): T {
    depth++;
    let ok = false;
    try {
      const result = compile();
      ok = true;
      return result;
    } finally {
      if (--depth === 0) {
        const [shapes, checks] = [made, deferred];
        [made, deferred] = [[], []];
        if (ok) {
          settleShapes(shapes);
          checks.forEach((check) => check());
        }
      }
    }
  }
  const track = <S extends Shape>(shape: S): S => {
    if (depth > 0) made.push(shape);
    return shape;
  };

  function namedShape(name: string, span?: Span): Shape {
    const cached = done.get(name);
    if (cached) return cached;
    const decl = decls.get(name);
    if (!decl) throw schemaError(`Unknown schema '${name}'.`, span);
    if (!(finite ??= finiteTypes({ schemas, unions })).has(name)) {
      throw schemaError(`Schema '${name}' is recursive with no finite value.`, span ?? decl.nameSpan);
    }
    return batch(() => {
      const def = { name, recursive: false };
      if (decl.kind === "Schema") {
        const shape = track(emptyObject(name));
        shape.def = def;
        done.set(name, shape);
        return fillObject(shape, decl.fields);
      }
      const shape = track<UnionShape>({ kind: "union", name, def, tag: decl.tag, members: [], memberByName: new Map(), ...plainBase(true) });
      done.set(name, shape);
      return fillUnion(shape, decl);
    });
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
        return track({ kind: "array", element, ...plainBase(element.needsPrepare) });
      }
      case "NamedType":
        return namedShape(ref.name, ref.span);
      default: {
        // schema/ reads the AST as types only (ARCHITECTURE.md): assertNever's check, by hand.
        const unhandled: never = ref;
        throw schemaError(`Unsupported type reference.`, (unhandled as { span?: Span }).span);
      }
    }
  }

  const emptyObject = (name: string): ObjectShape => ({ kind: "object", name, fields: [], fieldNames: new Set(), ...plainBase() });

  /** Fills the shape's own field list and name set in place: annotated copies share both. */
  function fillObject(shape: ObjectShape, fields: readonly Field[]): ObjectShape {
    const names = shape.fieldNames as Set<string>;
    for (const field of fields) {
      if (names.has(field.name)) throw schemaError(`Duplicate field '${field.name}' in ${shape.name}.`, field.nameSpan);
      names.add(field.name);
      const fieldShape = track(annotateField(field, ofType(field.type), (check) => deferred.push(check)));
      shape.fields.push({ name: field.name, required: !field.optional && !fieldShape.hasDefault, shape: fieldShape } satisfies FieldShape);
    }
    shape.needsPrepare = shape.fields.some((f) => f.shape.needsPrepare);
    return shape;
  }

  function fillUnion(shape: UnionShape, decl: UnionDecl): UnionShape {
    const memberByName = shape.memberByName as Map<string, ObjectShape>;
    for (const m of decl.members) {
      const target = decls.get(m.name);
      if (target?.kind === "Union") {
        throw schemaError(`Member '${m.name}' of schema '${decl.name}' must be a plain schema, not a tagged union.`, m.span);
      }
      if (memberByName.has(m.name)) throw schemaError(`Duplicate member '${m.name}' in ${decl.name}.`, m.span);
      const member = namedShape(m.name, m.span) as ObjectShape;
      // Read from the declaration: a member on the same cycle is still being filled.
      if ((target as SchemaDecl).fields.some((f) => f.name === decl.tag)) {
        throw schemaError(`Tag '${decl.tag}' of schema '${decl.name}' clashes with a field of member '${m.name}'.`, decl.tagSpan);
      }
      shape.members.push(member);
      memberByName.set(m.name, member);
    }
    if (shape.members.length === 0) throw schemaError(`Schema '${decl.name}' has no members.`, decl.nameSpan);
    return shape;
  }

  return {
    named: (name) => (decls.has(name) ? namedShape(name) : undefined),
    ofType: (ref) => batch(() => ofType(ref)),
    objectOf: (name, fields) => batch(() => fillObject(track(emptyObject(name)), fields)),
  };
}
