/**
 * A field's annotations applied to its type's shape (spec §3): `@desc` and `@default`
 * become metadata, rule annotations become constraints (keywords from the ANNOTATIONS
 * table), `@severity("soft")` marks the field's rules soft. The result is the field's own
 * copy of the shape; an unannotated field shares its type's shape.
 */
import type { ConstValue, Field } from "../syntax/ast";
import type { ValidationIssue } from "./schema-table-types";
import { annotationProblem, annotationSpec, typeCategory } from "./annotations";
import { collectIssues } from "./collect-issues";
import { prepareValue } from "./prepare-value";
import { schemaError } from "./schema-error";
import type { Constraint, Shape } from "./shape";
import { typeText } from "./type-text";
import type { WalkContext } from "./walk-context";

/**
 * `defer` runs the `@default` check later: in a recursive schema the default's type may
 * still be being compiled (the compiler runs deferred checks once the graph is complete).
 */
export function annotateField(field: Field, base: Shape, defer: (check: () => void) => void = (check) => check()): Shape {
  if (field.annotations.length === 0) return base;
  const category = typeCategory(field.type);
  const seen = new Set<string>();
  const constraints: Constraint[] = [];
  let description: string | undefined;
  let soft = false;
  let defaultValue: { value: ConstValue } | undefined;

  for (const ann of field.annotations) {
    const args = ann.args.map((a) => a.value);
    const problem = annotationProblem(ann.name, args, category);
    if (problem) throw schemaError(problem, ann.span);
    if (seen.has(ann.name)) throw schemaError(`Duplicate annotation '@${ann.name}' on '${field.name}'.`, ann.span);
    seen.add(ann.name);
    const spec = annotationSpec(ann.name)!;
    spec.keywords.forEach((keyword, i) => {
      const limit = args[i] as number | string;
      constraints.push({ rule: `@${ann.name}`, keyword, limit, regex: keyword === "pattern" ? new RegExp(limit as string) : undefined });
    });
    if (ann.name === "desc") description = args[0] as string;
    if (ann.name === "severity") soft = args[0] === "soft";
    if (ann.name === "default") defaultValue = { value: args[0] };
  }

  const shape: Shape = { ...base, constraints: [...base.constraints, ...constraints], soft, description };
  if (defaultValue) {
    const withDefault: Shape = { ...shape, hasDefault: true, default: defaultValue.value, needsPrepare: true };
    defer(() => checkDefault(field, withDefault, defaultValue.value));
    return withDefault;
  }
  return shape;
}

/** A default that breaks its own field's contract would be filled in and then rejected. */
function checkDefault(field: Field, shape: Shape, value: ConstValue): void {
  const ctx: WalkContext = {
    direction: "input",
    memberAccepts: (member, v) => {
      const issues: ValidationIssue[] = [];
      collectIssues(member, v, "", ctx, issues);
      return issues.length === 0;
    },
  };
  const issues: ValidationIssue[] = [];
  collectIssues(shape, prepareValue(shape, value, ctx), field.name, ctx, issues);
  if (issues.length > 0) {
    const ann = field.annotations.find((a) => a.name === "default")!;
    throw schemaError(
      `Annotation '@default' value does not match type '${typeText(field.type)}': ${issues[0].message}`,
      ann.args[0]?.span ?? ann.span,
    );
  }
}
