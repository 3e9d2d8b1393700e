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
import type { CallContext } from "./call-context";
import { canonicalJson } from "../../base/canonical-json";

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

/** The general writer: any subset of the parameters present, in sorted order. */
const anyFields = (names: readonly string[], first: readonly string[], later: readonly string[]): Fingerprint => (input) => {
  const obj = input as Record<string, unknown>;
  let out = "";
  for (let i = 0; i < names.length; i++) {
    const v = obj[names[i]];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    out += (out === "" ? first[i] : later[i]) + scalarJson(v);
  }
  return out === "" ? "{}" : out + "}";
};

/**
 * The usual case — every parameter present — as one template literal over the parameters
 * in sorted order: the engine joins its parts in one step, ~45 ns less than appending part
 * by part, with fewer string pieces for a stored fingerprint to keep alive. The code is
 * generated once per tool from the parameter count alone: names and headers are passed in
 * as values (`o[n0]`, `${h0}`), so no name is ever spliced into source text.
 *
 * The same generation gives the deferred form (ToolFingerprint): `snapshot` copies the
 * values into a small object `{v0, v1, …}` (one allocation, where an array takes two) when
 * every one is present and a primitive, so the copy can never change; `ofSnapshot` writes
 * the text from it later, identical to `write`.
 */
interface CompiledFingerprint {
  write: Fingerprint;
  snapshot(o: Record<string, unknown>): Snapshot | undefined;
  ofSnapshot(values: Snapshot): string;
}

/** The primitive values of a validated input, in sorted parameter order (`v0`, `v1`, …). */
export type Snapshot = object;

const compile = (names: readonly string[], heads: readonly string[], general: Fingerprint): CompiledFingerprint => {
  const idx = Array.from({ length: names.length }, (_, i) => i);
  const absent = (v: string) => `${v} === undefined || typeof ${v} === "function" || typeof ${v} === "symbol"`;
  const primitive = (v: string) => `(typeof ${v} !== "object" || ${v} === null) && ${v} !== undefined && typeof ${v} !== "function" && typeof ${v} !== "symbol"`;
  const template = (v: (i: number) => string) => "`" + idx.map((i) => `\${h${i}}\${scalar(${v(i)})}`).join("") + "}`";
  const source = [
    ...idx.map((i) => `const n${i} = names[${i}], h${i} = heads[${i}];`),
    "const write = (o) => {",
    ...idx.map((i) => `  const v${i} = o[n${i}];`),
    `  if (${idx.map((i) => absent(`v${i}`)).join(" || ")}) return general(o);`,
    `  return ${template((i) => `v${i}`)};`,
    "};",
    "const snapshot = (o) => {",
    ...idx.map((i) => `  const v${i} = o[n${i}];`),
    `  return ${idx.map((i) => `(${primitive(`v${i}`)})`).join(" && ")} ? { ${idx.map((i) => `v${i}`).join(", ")} } : undefined;`,
    "};",
    `const ofSnapshot = (s) => ${template((i) => `s.v${i}`)};`,
    "return { write, snapshot, ofSnapshot };",
  ].join("\n");
  return new Function("names", "heads", "scalar", "general", source)(names, heads, scalarJson, general) as CompiledFingerprint;
};

/**
 * A tool's fingerprint writer, and its deferred form for step 9. A claim of a fresh key —
 * the usual case — never needs the text: only a later claim of the same key compares it.
 * So when the validated input holds only primitives, step 9 keeps a snapshot of them and
 * the text is written only if some store reads it (claim-request.ts).
 */
export interface ToolFingerprint {
  write: Fingerprint;
  /** The values to write the text from later; undefined when the input holds an object (write it now). */
  snapshot(input: unknown): Snapshot | undefined;
  ofSnapshot(values: Snapshot): string;
}

const NO_SNAPSHOT = (): undefined => undefined;

export const toolFingerprint = (paramNames: readonly string[]): ToolFingerprint => {
  const names = [...paramNames].sort();
  const first = names.map((n) => "{" + JSON.stringify(n) + ":");
  const later = names.map((n) => "," + JSON.stringify(n) + ":");
  const general = anyFields(names, first, later);
  const isObject = (input: unknown): input is Record<string, unknown> => input !== null && typeof input === "object" && !Array.isArray(input);
  if (names.length === 0) {
    return { write: (input) => (isObject(input) ? general(input) : canonicalJson(input)), snapshot: NO_SNAPSHOT, ofSnapshot: () => "{}" };
  }
  const c = compile(names, names.map((_, i) => (i === 0 ? first[i] : later[i])), general);
  return {
    write: (input) => (isObject(input) ? c.write(input) : canonicalJson(input)),
    snapshot: (input) => (isObject(input) ? c.snapshot(input) : undefined),
    ofSnapshot: c.ofSnapshot,
  };
};

/** The eager writer alone (the cache key, tests). */
export const inputFingerprint = (paramNames: readonly string[]): Fingerprint => toolFingerprint(paramNames).write;

/**
 * The call's fingerprint, written once: step 8 (cache key) and step 9 (idempotency) both
 * need it, and the validated input does not change between them.
 */
export const inputFingerprintOf = (ctx: CallContext): string => (ctx.fingerprint ??= (ctx.plan.tool.fingerprint ?? canonicalJson)(ctx.input));
