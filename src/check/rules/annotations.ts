/**
 * §3 field annotations, on every field and parameter: the name must be known, the field's
 * type one it applies to, the arguments of the right number and kind; `@default` must fit
 * the field type, `@severity`/`@format` take only their listed values, `@pattern` must
 * compile as an ECMAScript regex, and `(min, max)` pairs must be ordered.
 *
 * The facts (arity, argument kinds, applies-to, allowed values) are the schema compiler's
 * one annotation table; this rule only reads them.
 */
import {
  annotationAppliesTo,
  annotationSpec,
  typeCategory,
  type AnnotationArgKind,
  type AnnotationSpec,
} from "../../schema/annotations";
import { typeText } from "../../schema/type-text";
import type { Annotation, ConstValue, Field } from "../../syntax/ast";
import { constMatchesType } from "../const-matches-type";
import type { CheckContext } from "../context";
import { messages, oneOf } from "../messages";
import { annotationHints } from "../suggestions";

const ARG_KIND_TEXT: Record<AnnotationArgKind, string> = {
  number: "a number",
  count: "a non-negative integer",
  string: "a string",
  value: "a constant",
};

function argFits(kind: AnnotationArgKind, value: ConstValue): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "count":
      return typeof value === "number" && Number.isInteger(value) && value >= 0;
    case "value":
      return true;
  }
}

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

function checkAnnotation(ctx: CheckContext, field: Field, a: Annotation, spec: AnnotationSpec): void {
  if (!annotationAppliesTo(spec, typeCategory(field.type))) {
    ctx.report(messages.annotationWrongType(a.name, typeText(field.type)), a.span);
  }
  if (a.args.length !== spec.arity) {
    ctx.report(messages.annotationArity(a.name, spec.arity, a.args.length), a.span);
    return;
  }
  let argsOk = true;
  for (let i = 0; i < spec.args.length; i++) {
    const kind = spec.args[i];
    const arg = a.args[i];
    if (kind === "value") {
      if (!constMatchesType(arg.value, field.type, ctx.symbols)) ctx.report(messages.defaultMismatch(typeText(field.type)), arg.span);
    } else if (!argFits(kind, arg.value)) {
      ctx.report(messages.annotationArgType(a.name, i + 1, ARG_KIND_TEXT[kind]), arg.span);
      argsOk = false;
    }
  }
  if (!argsOk) return;
  const first = a.args[0];
  if (spec.values && !spec.values.includes(first.value as string)) {
    ctx.report(messages.annotationValues(a.name, oneOf(spec.values)), first.span);
  }
  if (spec.bounds && (a.args[0].value as number) > (a.args[1].value as number)) {
    ctx.report(messages.annotationBounds(a.name), a.span);
  }
  if (spec.regex && !isValidRegex(first.value as string)) ctx.report(messages.annotationBadRegex(a.name), first.span);
}

function checkField(ctx: CheckContext, field: Field): void {
  // Most fields have no annotation or one: no set to repeat-check them.
  const seen = field.annotations.length > 1 ? new Set<string>() : undefined;
  for (const a of field.annotations) {
    if (seen?.has(a.name)) ctx.report(messages.duplicateAnnotation(a.name, field.name), a.span);
    seen?.add(a.name);
    const spec = annotationSpec(a.name);
    if (!spec) ctx.report(messages.unknownAnnotation(a.name), a.span, { hints: annotationHints(a.name) });
    else checkAnnotation(ctx, field, a, spec);
  }
}

export function annotations(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) {
    if (decl.kind === "Schema") for (const f of decl.fields) checkField(ctx, f);
    if (decl.kind === "Tool" || decl.kind === "Query" || decl.kind === "Command") for (const f of decl.params) checkField(ctx, f);
    if (decl.kind === "Agent") for (const f of decl.params ?? []) checkField(ctx, f);
  }
  for (const unit of ctx.units) for (const f of unit.params) checkField(ctx, f);
}
