/**
 * The idempotency fingerprint of a validated input: exactly `canonicalJson(input)`, written
 * faster. A tool's validated input holds only its declared parameters (the input schema
 * has `additionalProperties: false`), so their sorted order is known once, when the plan is
 * built; each call then writes `{"a":…,"b":…}` in that order and sorts nothing, except
 * inside nested objects, which go through canonicalJson. (Parameter names are identifiers,
 * never integer-like keys, so plain string order is the canonical order.) Scalars skip
 * JSON.stringify where the text is known without it: finite numbers, booleans, and strings
 * with nothing to escape.
 *
 * The text must stay equal to canonicalJson: persistent stores keep digests of it across
 * processes and versions. A test checks the two agree.
 */
import { canonicalJson } from "./canonical-json";

export type Fingerprint = (input: unknown) => string;

/** Characters JSON.stringify would escape: quote, backslash, controls, and any surrogate half. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

const scalarJson = (v: unknown): string => {
  switch (typeof v) {
    case "string":
      return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : '"' + v + '"';
    case "number":
      return Number.isFinite(v) ? "" + v : "null";
    case "boolean":
      return v ? "true" : "false";
    default:
      return v !== null && typeof v === "object" ? canonicalJson(v) : JSON.stringify(v);
  }
};

export const inputFingerprint = (paramNames: readonly string[]): Fingerprint => {
  const names = [...paramNames].sort();
  const first = names.map((n) => "{" + JSON.stringify(n) + ":");
  const later = names.map((n) => "," + JSON.stringify(n) + ":");
  return (input) => {
    if (input === null || typeof input !== "object" || Array.isArray(input)) return canonicalJson(input);
    const obj = input as Record<string, unknown>;
    let out = "";
    for (let i = 0; i < names.length; i++) {
      const v = obj[names[i]];
      if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
      out += (out === "" ? first[i] : later[i]) + scalarJson(v);
    }
    return out === "" ? "{}" : out + "}";
  };
};
