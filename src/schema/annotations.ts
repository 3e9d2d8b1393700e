/**
 * The one table of field annotations (spec §3): what each takes, which types it applies
 * to, and which JSON Schema keywords it becomes.
 *
 * The schema compiler builds constraints from it; the checker reads the same facts to
 * report an unknown annotation, a wrong arity or an annotation on a type it does not
 * apply to — so "what `@range` means" is written down exactly once.
 */
import type { ConstValue, TypeRef } from "../syntax/ast";
import type { ConstraintKeyword } from "./shape";

/** What an annotation can be attached to, from the field's declared type. */
export type TypeCategory = "string" | "int" | "float" | "bool" | "any" | "enum" | "array" | "schema";

/**
 * Argument kinds: `number` any finite number; `count` a non-negative integer;
 * `string` a string; `value` any constant (checked against the field type elsewhere).
 */
export type AnnotationArgKind = "number" | "count" | "string" | "value";

export const FORMATS = ["email", "uri", "uuid", "date", "date-time"] as const;
export type FormatName = (typeof FORMATS)[number];
export const SEVERITIES = ["hard", "soft"] as const;

export interface AnnotationSpec {
  /** Without the `@`. */
  name: string;
  /** Exactly this many arguments. */
  arity: number;
  args: readonly AnnotationArgKind[];
  /** `"all"`: any field type. */
  appliesTo: "all" | readonly TypeCategory[];
  /** A string argument must be one of these. */
  values?: readonly string[];
  /** Two arguments that are a lower and an upper bound (`min <= max`). */
  bounds?: boolean;
  /** The argument is an ECMAScript regular expression. */
  regex?: boolean;
  /** The validation keywords it becomes, in argument order (none for metadata annotations). */
  keywords: readonly ConstraintKeyword[];
}

const NUMBERS: readonly TypeCategory[] = ["int", "float"];

export const ANNOTATIONS: readonly AnnotationSpec[] = [
  { name: "desc", arity: 1, args: ["string"], appliesTo: "all", keywords: [] },
  { name: "default", arity: 1, args: ["value"], appliesTo: "all", keywords: [] },
  { name: "range", arity: 2, args: ["number", "number"], appliesTo: NUMBERS, bounds: true, keywords: ["minimum", "maximum"] },
  { name: "min", arity: 1, args: ["number"], appliesTo: NUMBERS, keywords: ["minimum"] },
  { name: "max", arity: 1, args: ["number"], appliesTo: NUMBERS, keywords: ["maximum"] },
  { name: "length", arity: 2, args: ["count", "count"], appliesTo: ["string"], bounds: true, keywords: ["minLength", "maxLength"] },
  { name: "pattern", arity: 1, args: ["string"], appliesTo: ["string"], regex: true, keywords: ["pattern"] },
  { name: "format", arity: 1, args: ["string"], appliesTo: ["string"], values: FORMATS, keywords: ["format"] },
  { name: "items", arity: 2, args: ["count", "count"], appliesTo: ["array"], bounds: true, keywords: ["minItems", "maxItems"] },
  { name: "severity", arity: 1, args: ["string"], appliesTo: "all", values: SEVERITIES, keywords: [] },
];

const BY_NAME = new Map(ANNOTATIONS.map((a) => [a.name, a]));

/** The spec of `@name` (without the `@`), or undefined for an unknown annotation. */
export const annotationSpec = (name: string): AnnotationSpec | undefined => BY_NAME.get(name);

/** The category a field's declared type falls in; named types (schemas, unions) are "schema". */
export function typeCategory(ref: TypeRef): TypeCategory {
  switch (ref.kind) {
    case "PrimType":
      return ref.name;
    case "EnumType":
      return "enum";
    case "ArrayType":
      return "array";
    case "NamedType":
      return "schema";
    default: {
      // schema/ reads the AST as types only (ARCHITECTURE.md): assertNever's check, by hand.
      const unhandled: never = ref;
      return unhandled;
    }
  }
}

export const annotationAppliesTo = (spec: AnnotationSpec, category: TypeCategory): boolean =>
  spec.appliesTo === "all" || spec.appliesTo.includes(category);

const ARG_KIND_TEXT: Record<AnnotationArgKind, string> = {
  number: "a number",
  count: "a non-negative integer",
  string: "a string",
  value: "a value",
};

const argFits = (kind: AnnotationArgKind, v: ConstValue): boolean => {
  switch (kind) {
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "count":
      return typeof v === "number" && Number.isInteger(v) && v >= 0;
    case "string":
      return typeof v === "string";
    case "value":
      return true;
  }
};

/**
 * The first problem with one annotation on a field of `category`, as a sentence, or
 * undefined when it is well-formed. (Whether a `@default` value fits the field's type
 * needs the whole schema; the schema compiler checks that.)
 */
export function annotationProblem(name: string, args: readonly ConstValue[], category: TypeCategory): string | undefined {
  const spec = annotationSpec(name);
  if (!spec) return `Unknown annotation '@${name}'.`;
  if (!annotationAppliesTo(spec, category)) return `Annotation '@${name}' does not apply to type '${category}'.`;
  if (args.length !== spec.arity) {
    return `Annotation '@${name}' expects ${spec.arity} argument${spec.arity === 1 ? "" : "s"}, got ${args.length}.`;
  }
  for (let i = 0; i < args.length; i++) {
    if (!argFits(spec.args[i], args[i])) return `Annotation '@${name}' argument ${i + 1} must be ${ARG_KIND_TEXT[spec.args[i]]}.`;
  }
  if (spec.values && !spec.values.includes(args[0] as string)) {
    return `Annotation '@${name}' must be one of ${spec.values.map((v) => JSON.stringify(v)).join(", ")}.`;
  }
  if (spec.bounds && (args[0] as number) > (args[1] as number)) {
    return `Annotation '@${name}' minimum must not be greater than its maximum.`;
  }
  if (spec.regex) {
    try {
      new RegExp(args[0] as string);
    } catch {
      return `Annotation '@${name}' is not a valid ECMAScript regular expression.`;
    }
  }
  return undefined;
}
