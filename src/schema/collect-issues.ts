/**
 * The issue walker: given a prepared value that failed its compiled check, say what is
 * wrong in Luma's terms — every issue with its full path, the rule as written in the
 * source, and a sentence (spec §3).
 *
 * Order is deterministic and follows the schema: at each node the type first, then the
 * field's annotation rules in annotation order, then children (declared fields in
 * declaration order, then unknown fields in the value's key order; array items by index).
 *
 * Severity: only annotation rules of a `@severity("soft")` field are soft, and only on
 * outputs. A type mismatch, a missing field, an unknown field, an enum miss or a bad tag
 * is always hard — a value of the wrong shape cannot be "kept with a warning".
 */
import type { ObjectShape, Shape, UnionShape } from "./shape";
import type { ValidationIssue } from "./schema-table-types";
import { CONSTRAINT_CHECKS } from "./constraint-checks";
import {
  ambiguousMemberIssue,
  constraintIssue,
  enumIssue,
  noMemberIssue,
  requiredIssue,
  tagIssue,
  typeIssue,
  unknownFieldIssue,
} from "./issue-messages";
import { untaggedMatches } from "./prepare-value";
import { hasTag, taggedMember } from "./tagged-union";
import { childPath, indexPath } from "./value-path";
import { isObjectLike, ownValue, type WalkContext } from "./walk-context";

/** Does the value have the shape's base type? (Mirrors TypeBox's compiled checks.) */
const TYPE_MATCHES: Record<Shape["kind"], (v: unknown, shape: Shape) => boolean> = {
  string: (v) => typeof v === "string",
  int: (v) => Number.isInteger(v),
  float: (v) => Number.isFinite(v),
  bool: (v) => typeof v === "boolean",
  any: () => true,
  enum: (v, s) => typeof v === "string" && (s as { values: string[] }).values.includes(v),
  array: (v) => Array.isArray(v),
  object: isObjectLike,
  union: isObjectLike,
};

export function collectIssues(shape: Shape, value: unknown, path: string, ctx: WalkContext, out: ValidationIssue[]): void {
  if (!TYPE_MATCHES[shape.kind](value, shape)) {
    out.push(shape.kind === "enum" ? enumIssue(path, shape.values) : typeIssue(path, shape, value));
    return;
  }
  if (shape.constraints.length > 0) {
    const severity = shape.soft && ctx.direction === "output" ? "soft" : "hard";
    for (const c of shape.constraints) {
      if (!CONSTRAINT_CHECKS[c.keyword].passes(value, c)) out.push(constraintIssue(path, c, severity));
    }
  }
  switch (shape.kind) {
    case "array":
      (value as unknown[]).forEach((item, i) => collectIssues(shape.element, item, indexPath(path, i), ctx, out));
      return;
    case "object":
      collectFields(shape, value as Record<string, unknown>, path, ctx, out);
      return;
    case "union":
      collectUnion(shape, value as Record<string, unknown>, path, ctx, out);
      return;
  }
}

function collectFields(
  shape: ObjectShape,
  value: Record<string, unknown>,
  path: string,
  ctx: WalkContext,
  out: ValidationIssue[],
  tag?: string,
): void {
  for (const field of shape.fields) {
    const fieldPath = childPath(path, field.name);
    // TypeBox accepts a present-but-undefined `any` field; everything else treats undefined as missing.
    const missing = field.shape.kind === "any" ? !Object.hasOwn(value, field.name) : ownValue(value, field.name) === undefined;
    if (missing) {
      if (field.required) out.push(requiredIssue(fieldPath));
      continue;
    }
    collectIssues(field.shape, value[field.name], fieldPath, ctx, out);
  }
  for (const key of Object.getOwnPropertyNames(value)) {
    if (!shape.fieldNames.has(key) && key !== tag) out.push(unknownFieldIssue(childPath(path, key)));
  }
}

function collectUnion(shape: UnionShape, value: Record<string, unknown>, path: string, ctx: WalkContext, out: ValidationIssue[]): void {
  const member = taggedMember(shape, value);
  if (member) return collectFields(member, value, path, ctx, out, shape.tag);
  if (ctx.direction === "output" || hasTag(shape, value)) {
    out.push(tagIssue(childPath(path, shape.tag)));
    return;
  }
  const matches = untaggedMatches(shape, value, ctx);
  const names = shape.members.map((m) => m.name);
  if (matches.length === 0) out.push(noMemberIssue(path, shape.name, names));
  else if (matches.length > 1) out.push(ambiguousMemberIssue(path, shape.name, shape.tag, matches.map((m) => m.member.name)));
}
