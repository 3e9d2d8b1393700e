/**
 * Every validation issue sentence, in one place. Each starts with the dotted path and,
 * except for the spec's exact tagged-union message, ends with the Luma rule in
 * parentheses, so a model told about it can see which contract line it broke.
 */
import type { Constraint, Shape } from "./shape";
import type { ValidationIssue } from "./schema-table-types";
import { CONSTRAINT_CHECKS } from "./constraint-checks";
import { subject } from "./value-path";

type Severity = ValidationIssue["severity"];

const issue = (path: string, rule: string, message: string, severity: Severity = "hard"): ValidationIssue => ({
  path,
  rule,
  message,
  severity,
});

const EXPECTED_TYPE: Record<string, string> = {
  string: "a string",
  int: "an integer",
  float: "a number",
  bool: "a boolean",
  array: "an array",
  object: "an object",
  union: "an object",
};

/** The JSON type of a value, for "got …". */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : Number.isFinite(value) ? "number" : String(value);
  return typeof value;
}

export const typeIssue = (path: string, shape: Shape, value: unknown): ValidationIssue =>
  issue(path, "type", `${subject(path)} must be ${EXPECTED_TYPE[shape.kind]}, got ${jsonTypeOf(value)} (type).`);

export const enumIssue = (path: string, values: readonly string[]): ValidationIssue =>
  issue(path, "enum", `${subject(path)} must be one of ${values.map((v) => JSON.stringify(v)).join(", ")} (enum).`);

export const requiredIssue = (path: string): ValidationIssue => issue(path, "required", `${path} is required (required).`);

export const unknownFieldIssue = (path: string): ValidationIssue =>
  issue(path, "unknown field", `${path} is not a known field (unknown field).`);

export const constraintIssue = (path: string, c: Constraint, severity: Severity): ValidationIssue =>
  issue(path, c.rule, `${subject(path)} ${CONSTRAINT_CHECKS[c.keyword].expectation(c)} (${c.rule}).`, severity);

/** Spec §3, *exact*: `classify.output.kind must identify a tagged union member.` */
export const tagIssue = (tagPath: string): ValidationIssue =>
  issue(tagPath, "tag", `${tagPath} must identify a tagged union member.`);

export const noMemberIssue = (path: string, union: string, members: readonly string[]): ValidationIssue =>
  issue(path, "tag", `${subject(path)} must match a member of ${union}: ${members.join(", ")} (tag).`);

export const ambiguousMemberIssue = (path: string, union: string, tag: string, matches: readonly string[]): ValidationIssue =>
  issue(path, "tag", `${subject(path)} matches more than one member of ${union}: ${matches.join(", ")}; set '${tag}' to choose (tag).`);

/** A value of a recursive schema nested past what the recursive walks may follow. */
export const depthIssue = (path: string, max: number): ValidationIssue =>
  issue(path, "depth", `${subject(path)} is nested deeper than ${max} levels (depth).`);

/** A value of a recursive schema with more objects and arrays (written out) than the walks may visit. */
export const sizeIssue = (path: string, max: number): ValidationIssue =>
  issue(path, "size", `${subject(path)} holds more than ${max} objects and arrays (size).`);

/** Only when TypeBox and the walker disagree; it should never be seen, but never hides a failure. */
export const schemaMismatchIssue = (path: string, detail: string): ValidationIssue =>
  issue(path, "schema", `${subject(path)} does not match its schema: ${detail} (schema).`);
