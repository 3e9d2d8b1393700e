/**
 * Validating a value against a type written in source: a typed assignment `x: T = …`, a fn's
 * declared return type, a fn parameter. Hard issues are VALUE_INVALID (the message holds the
 * full dotted path: `total.return must be integer`, `answer.score must be <= 10 (@range)`);
 * soft issues go to stderr as `warning: …` lines and the value is kept.
 *
 * Directions: parameters are *inputs* (every rule is hard, as for tool parameters, and a
 * tagged-union argument gets its discriminator written); assignments and return values are
 * *outputs* (soft rules annotate).
 *
 * Unannotated primitive types (by far the most common: `n: int`, `-> string`) are checked
 * inline; the schema table is asked only for everything else or to word a failure.
 */
import type { Field, Span, TypeRef } from "../../syntax/ast";
import type { Direction, ValidationTarget } from "../../schema/schema-table-types";
import { freshSoftIssues, softWarningLine } from "../base/soft-issue-report";
import { errorAt, locationOf } from "./runtime-errors";
import type { Runtime } from "./runtime-context";
import { isObjectValue, typeName, type Value } from "./values";
import { isThread } from "./thread-values";

function primitiveOk(type: TypeRef, v: Value): boolean {
  if (type.kind !== "PrimType") return false;
  switch (type.name) {
    case "any":
      return true;
    case "string":
      return typeof v === "string";
    case "bool":
      return typeof v === "boolean";
    case "int":
      return typeof v === "number" && Number.isInteger(v);
    case "float":
      return typeof v === "number";
  }
}

/**
 * `Thread` and `Message` (issue #26 §1), unless the program declares a schema of the name:
 * true when the value is one, what it must be when not, undefined for every other type.
 */
function builtinTypeVerdict(rt: Runtime, type: TypeRef, v: Value): true | string | undefined {
  if (type.kind === "ArrayType") {
    const inner = builtinTypeVerdict(rt, type.element, null);
    if (inner === undefined) return undefined;
    return Array.isArray(v) && v.every((item) => builtinTypeVerdict(rt, type.element, item) === true) ? true : `an array of ${type.element.kind === "NamedType" ? type.element.name : "values"}`;
  }
  if (type.kind !== "NamedType" || rt.host.schemas.named(type.name) !== undefined) return undefined;
  if (type.name === "Thread") return isThread(v) || "a Thread";
  if (type.name === "Message") return (isObjectValue(v) && typeof v.role === "string" && typeof v.text === "string") || "a Message";
  return undefined;
}

const withoutPeriod = (s: string): string => (s.endsWith(".") ? s.slice(0, -1) : s);

/** Annotations that constrain a value (not `@desc`, `@default`). */
const hasRules = (field: Field): boolean => field.annotations.some((a) => a.name !== "desc" && a.name !== "default");

/**
 * A fn parameter: its type and its annotations (`n: int @range(1, 10)`), checked as an input;
 * or (`"output"`) a value written into a schema's field, `root` the path to its object.
 */
export function validateParam(rt: Runtime, field: Field, value: Value, root: string, span: Span, direction: Direction = "input"): Value {
  if (!hasRules(field)) return validateValue(rt, field.type, value, direction, `${root}.${field.name}`, span);
  return report(rt, rt.host.schemas.validate({ param: field }, value, direction, root), root, span, value);
}

export function validateValue(
  rt: Runtime,
  type: TypeRef,
  value: Value,
  direction: Direction,
  root: string,
  span: Span,
): Value {
  if (primitiveOk(type, value)) return value;
  const builtin = builtinTypeVerdict(rt, type, value);
  if (builtin === true) return value;
  if (builtin !== undefined) throw errorAt(rt.sourceOf, "VALUE_INVALID", `${root} must be ${builtin}, got ${typeName(value)}`, span);
  return report(rt, rt.host.schemas.validate(type as ValidationTarget, value, direction, root), root, span, value);
}

function report(rt: Runtime, result: ReturnType<Runtime["host"]["schemas"]["validate"]>, root: string, span: Span, value: Value): Value {
  // A value already annotated on its way in (an ask's or a tool's result) warns once.
  for (const issue of freshSoftIssues(value, root, result.soft)) {
    rt.host.stderr(softWarningLine(issue, locationOf(rt.sourceOf, span)));
  }
  if (!result.ok) {
    const issues = result.hard.length ? result.hard : [{ path: root, rule: "type", message: `${root} is invalid`, severity: "hard" as const }];
    const message = issues.map((i) => withoutPeriod(i.message)).join("; ");
    throw errorAt(rt.sourceOf, "VALUE_INVALID", message, span, { issues: issues.map(({ path, rule, message }) => ({ path, rule, message })) });
  }
  return (result.value ?? null) as Value;
}
