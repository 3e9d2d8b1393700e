/**
 * A tiny declarative checker for JSON shapes: a config schema is a table of `Rule`s, and
 * `checkShape` walks a value against it, collecting every problem (unknown key, wrong type,
 * missing key) with the key path it sits at — not stopping at the first. An unknown key
 * names the closest key the object accepts (`tool_modles` → `tool_modules`).
 */
import { closestName } from "../diagnostics/did-you-mean";

export type Rule =
  /** `form` describes a patterned string in messages: "must be <form> (got …)". */
  | { kind: "string"; pattern?: RegExp; form?: string }
  | { kind: "bool" }
  | { kind: "int"; min: number }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "list"; of: Rule }
  | { kind: "object"; fields: Record<string, Rule>; required?: readonly string[]; check?: ObjectCheck }
  /** An object with free keys (context names), every value checked by `of`. */
  | { kind: "map"; of: Rule }
  /** A string or an object (the short and long form of a tool module entry). */
  | { kind: "stringOr"; string: Rule; object: Rule }
  /** `true`, `false` or a list (`allow_env`: every variable, none, or these). */
  | { kind: "boolOrList"; of: Rule };

/** Cross-field checks of one object; returns problems already worded with their paths. */
export type ObjectCheck = (value: Record<string, unknown>, path: string) => string[];

/** `a.b`, `a[0]`: how the messages name a place in the file. */
export const childPath = (parent: string, key: string | number): string =>
  typeof key === "number" ? `${parent}[${key}]` : parent === "" ? key : `${parent}.${key}`;

/** How a wrong value is shown in "(got …)": primitives as JSON, compound values by kind. */
export const showValue = (value: unknown): string =>
  Array.isArray(value) ? "a list" : value !== null && typeof value === "object" ? "an object" : JSON.stringify(value);

const describe = (rule: Rule): string => {
  switch (rule.kind) {
    case "string":
      return rule.form ?? "a non-empty string";
    case "bool":
      return "true or false";
    case "int":
      return `an integer >= ${rule.min}`;
    case "enum":
      return `one of ${rule.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "list":
      return "a list";
    case "object":
    case "map":
      return "an object";
    case "stringOr":
      return "a string or an object";
    case "boolOrList":
      return "true, false or a list";
  }
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** True when `value` has the JS type `rule` wants; the finer checks happen in `checkShape`. */
const accepts = (rule: Rule, value: unknown): boolean => {
  switch (rule.kind) {
    case "string":
      return typeof value === "string" && value !== "" && (!rule.pattern || rule.pattern.test(value));
    case "bool":
      return typeof value === "boolean";
    case "int":
      return typeof value === "number" && Number.isInteger(value) && value >= rule.min;
    case "enum":
      return typeof value === "string" && rule.values.includes(value);
    case "list":
      return Array.isArray(value);
    case "object":
    case "map":
      return isPlainObject(value);
    case "stringOr":
      return typeof value === "string" || isPlainObject(value);
    case "boolOrList":
      return typeof value === "boolean" || Array.isArray(value);
  }
};

/** Every problem of `value` against `rule`, each as `'path' …` or `unknown key 'path'`. */
export function checkShape(rule: Rule, value: unknown, path: string): string[] {
  if (!accepts(rule, value)) {
    const where = path === "" ? "the configuration" : `'${path}'`;
    return [`${where} must be ${describe(rule)} (got ${showValue(value)})`];
  }
  switch (rule.kind) {
    case "list":
      return (value as unknown[]).flatMap((item, i) => checkShape(rule.of, item, childPath(path, i)));
    case "boolOrList":
      return Array.isArray(value) ? value.flatMap((item, i) => checkShape(rule.of, item, childPath(path, i))) : [];
    case "map":
      return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => checkShape(rule.of, v, childPath(path, k)));
    case "stringOr":
      return checkShape(typeof value === "string" ? rule.string : rule.object, value, path);
    case "object":
      return checkObject(rule, value as Record<string, unknown>, path);
    default:
      return [];
  }
}

function unknownKey(path: string, key: string, known: readonly string[]): string {
  const closest = closestName(key, known);
  return `unknown key '${childPath(path, key)}'${closest === undefined ? "" : ` (did you mean '${closest}'?)`}`;
}

function checkObject(rule: Extract<Rule, { kind: "object" }>, value: Record<string, unknown>, path: string): string[] {
  const problems: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const fieldRule = Object.hasOwn(rule.fields, key) ? rule.fields[key] : undefined;
    if (!fieldRule) problems.push(unknownKey(path, key, Object.keys(rule.fields)));
    else problems.push(...checkShape(fieldRule, child, childPath(path, key)));
  }
  for (const key of rule.required ?? []) {
    if (!Object.hasOwn(value, key)) problems.push(`'${childPath(path, key)}' is required`);
  }
  // Cross-field checks only make sense once every field has the right type.
  if (problems.length === 0 && rule.check) problems.push(...rule.check(value, path));
  return problems;
}
