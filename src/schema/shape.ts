/**
 * The schema compiler's intermediate form: a `Shape` per type, compiled once from the AST.
 *
 * Two things are derived from it: the TypeBox type (`to-typebox.ts`, which is also the JSON
 * Schema a model receives) and the Luma-aware walks that TypeBox cannot do for us — filling
 * defaults, tagging union inputs (`prepare-value.ts`) and naming the failed Luma rule
 * (`collect-issues.ts`). Keeping one source for all three is what keeps them in agreement.
 *
 * A field's annotations live on the field's own copy of its type's shape (`annotateField`), so
 * a named schema is shared by every field that references it while `@desc`/`@range`/
 * `@severity` stay per field.
 *
 * A recursive schema is a cyclic graph: `Comment.replies` is an array whose element is the
 * `Comment` shape itself. Walks over values terminate because they follow the value (which
 * is finite), not the schema; the graph's own walks (`needsPrepare`, JSON Schema `$defs`)
 * remember what they have visited. `def` marks a declared schema; its `recursive` flag is
 * shared with every annotated copy, so each knows to be written as a `$ref`.
 */
import type { ConstValue } from "../syntax/ast";

/** A JSON Schema validation keyword an annotation turns into. */
export type ConstraintKeyword =
  | "minimum"
  | "maximum"
  | "minLength"
  | "maxLength"
  | "pattern"
  | "format"
  | "minItems"
  | "maxItems";

export interface Constraint {
  /** The Luma annotation it came from, as written: "@range", "@min", "@length"… */
  rule: string;
  keyword: ConstraintKeyword;
  limit: number | string;
  /** Compiled once for `pattern`. */
  regex?: RegExp;
}

interface ShapeBase {
  /** Rules from the field's annotations, checked after the type matched. */
  constraints: Constraint[];
  /** `@severity("soft")`: on outputs, failed constraints annotate instead of failing. */
  soft: boolean;
  description?: string;
  hasDefault: boolean;
  default?: ConstValue;
  /** Something below (or here) has a default or a tagged union: `prepare` must walk it. */
  needsPrepare: boolean;
}

export interface FieldShape {
  name: string;
  /** In JSON Schema `required`: neither `name?:` nor `@default`. */
  required: boolean;
  shape: Shape;
}

export type ScalarKind = "string" | "int" | "float" | "bool" | "any";

export type ScalarShape = ShapeBase & { kind: ScalarKind };
export type EnumShape = ShapeBase & { kind: "enum"; values: string[] };
export type ArrayShape = ShapeBase & { kind: "array"; element: Shape };
/** A declared schema or tagged union, shared by its shape and every annotated copy of it. */
export interface NamedDef {
  name: string;
  /** It reaches itself (set when its graph is complete): JSON Schema writes it once, in `$defs`, and refers to it by `$ref`. */
  recursive: boolean;
}

export type ObjectShape = ShapeBase & {
  kind: "object";
  /** Absent for generated inputs (`__tool_<name>_input`), which nothing references. */
  def?: NamedDef;
  /** The schema name, or `__tool_<name>_input` for generated inputs. */
  name: string;
  fields: FieldShape[];
  fieldNames: ReadonlySet<string>;
};
export type UnionShape = ShapeBase & {
  kind: "union";
  def: NamedDef;
  name: string;
  tag: string;
  /** Member schemas in declaration order, without the tag field. */
  members: ObjectShape[];
  memberByName: ReadonlyMap<string, ObjectShape>;
};

export type Shape = ScalarShape | EnumShape | ArrayShape | ObjectShape | UnionShape;

/** The fields every shape starts with before annotations are applied. */
export const plainBase = (needsPrepare = false): ShapeBase => ({
  constraints: [],
  soft: false,
  hasDefault: false,
  needsPrepare,
});
