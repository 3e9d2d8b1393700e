/**
 * The kinds of value a `key: value` entry of a declaration block may hold, read side: what
 * each kind expects (the generic "Key 'k' in tool 'x' must be …." message says it) and how
 * the runtime reads a value of it. A key's kind is at once what the checker accepts and
 * what the runtime gets (`keys/key-spec.ts` reads a block); how the checker judges each
 * kind — messages, did-you-mean, names of declarations — is `check/value-kind-checks.ts`,
 * an exhaustive switch over `ValueKind["tag"]`, so the runtime reading a key never loads
 * the checker.
 *
 * The readers are tolerant, as the checker has already rejected ill-typed values: a value
 * the kind refuses reads as `undefined`, and the key keeps its default.
 */
import type { ConfigValue } from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";
import { oneOfText, withArticle } from "./declaration-nouns";

/** The kinds, by what judges them; `int` and `oneOf` carry their bounds. */
export type ValueKindTag =
  | "str"
  | "bool"
  | "num"
  | "nonNegative"
  | "int"
  | "oneOf"
  | "envName"
  | "fieldPath"
  | "stringList"
  | "schemaRef"
  | "modelRef"
  | "datasourceRef"
  | "toolList"
  | "agentList"
  | "constObject"
  | "approvalSpec";

export interface ValueKind<T = unknown> {
  readonly tag: ValueKindTag;
  readonly expected: string;
  /** The runtime value; `undefined` when the value is not of this kind. */
  read(value: ConfigValue): T | undefined;
  /** `int`: the least value. */
  readonly min?: number;
  /** `oneOf`: the values allowed. */
  readonly values?: readonly string[];
}

const lit = (v: ConfigValue) => (v.kind === "Lit" ? v.value : undefined);
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FIELD_PATH = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/;

/** A string written quoted (`"x"`) or, for names, bare (`Warehouse`, `input.id`). */
const readString = (v: ConfigValue): string | undefined => {
  const s = lit(v);
  return typeof s === "string" ? s : v.kind === "Path" ? v.parts.join(".") : undefined;
};
const readNumber = (v: ConfigValue): number | undefined => (typeof lit(v) === "number" ? (lit(v) as number) : undefined);
/** `["db", "cache"]` or `[db, cache]`; anything else reads as undefined. */
const readStringList = (v: ConfigValue): readonly string[] | undefined => {
  if (v.kind !== "List") return undefined;
  const out: string[] = [];
  for (const item of v.items) {
    const s = readString(item);
    if (s !== undefined) out.push(s);
  }
  return out;
};

/** Whether a literal is of a kind judged by its value alone (every kind but the name references). */
export function literalAccepts(kind: ValueKind, v: ConfigValue): boolean {
  const value = lit(v);
  switch (kind.tag) {
    case "str":
      return typeof value === "string";
    case "bool":
      return typeof value === "boolean";
    case "num":
      return typeof value === "number";
    case "nonNegative":
      return typeof value === "number" && value >= 0;
    case "int":
      return typeof value === "number" && Number.isInteger(value) && (kind.min === undefined || value >= kind.min);
    case "oneOf":
      return kind.values!.includes(value as string);
    case "envName":
      return typeof value === "string" && ENV_NAME.test(value);
    case "fieldPath":
      return v.kind === "Path" || (typeof value === "string" && FIELD_PATH.test(value));
    case "stringList":
      return v.kind === "List" && v.items.every((i) => typeof lit(i) === "string");
    case "constObject":
      return v.kind === "Obj" && isConstant(v);
    case "schemaRef":
    case "modelRef":
    case "datasourceRef":
    case "toolList":
    case "agentList":
      return true;
    case "approvalSpec":
      return typeof value === "boolean" || v.kind === "Path";
  }
}

/**
 * The first part of a value that is not a constant — a bare name (`owner: team`), which
 * would name something of the program — as its dotted place in the value and the name;
 * `undefined` when every leaf is a literal (strings, numbers, bools, null, lists, objects).
 */
export function firstNonConstant(v: ConfigValue, at = ""): { at: string; name: string; value: ConfigValue } | undefined {
  switch (v.kind) {
    case "Lit":
      return undefined;
    case "Path":
      return { at, name: v.parts.join("."), value: v };
    case "List":
      for (const [i, item] of v.items.entries()) {
        const found = firstNonConstant(item, `${at}[${i}]`);
        if (found) return found;
      }
      return undefined;
    case "Obj":
      for (const e of v.entries) {
        const found = firstNonConstant(e.value, at === "" ? e.key : `${at}.${e.key}`);
        if (found) return found;
      }
      return undefined;
    default:
      return assertNever(v);
  }
}

/** A kind whose reader takes only what it accepts: a value it refuses reads as undefined. */
const strictKind = <T>(tag: ValueKindTag, expected: string, read: (v: ConfigValue) => T | undefined, extra: Partial<ValueKind<T>> = {}): ValueKind<T> => {
  const kind: ValueKind<T> = { tag, expected, ...extra, read: (v) => (literalAccepts(kind, v) ? read(v) : undefined) };
  return kind;
};

export const str: ValueKind<string> = { tag: "str", expected: "a string", read: readString };
export const bool: ValueKind<boolean> = strictKind("bool", "true or false", (v) => lit(v) as boolean);
export const num: ValueKind<number> = strictKind("num", "a number", readNumber);
/** A price or other amount that cannot be negative. */
export const nonNegative: ValueKind<number> = strictKind("nonNegative", "a number >= 0", readNumber);

/** An integer (ms, counts); one below `min` reads as undefined, so the key keeps its default. */
export const int = (min?: number): ValueKind<number> =>
  strictKind("int", min === undefined ? "an integer" : `an integer >= ${min}`, readNumber, { min });

/** One of a few strings; the runtime gets the union of them. */
export const oneOf = <const V extends string>(...values: V[]): ValueKind<V> =>
  strictKind("oneOf", oneOfText(values), (v) => lit(v) as V, { values });

export const envName: ValueKind<string> = strictKind("envName", "an environment variable name", readString);

/**
 * A field path into a tool's input: `request_id`, `input.request_id` (never an expression).
 * The runtime gets the path inside the validated input: `input.request_id` and `request_id`
 * name the same field.
 */
export const fieldPath: ValueKind<readonly string[]> = {
  tag: "fieldPath",
  expected: "a parameter path",
  read(v) {
    const s = lit(v);
    const path = v.kind === "Path" ? v.parts : typeof s === "string" ? s.split(".") : undefined;
    return path && path.length > 1 && path[0] === "input" ? path.slice(1) : path;
  },
};

export const stringList: ValueKind<readonly string[]> = { tag: "stringList", expected: "a list of strings", read: readStringList };

/** A list of strings the runtime asks "is x in it?" of (`tool_scopes`, `tool_contexts`). */
export const stringSet: ValueKind<ReadonlySet<string>> = {
  tag: "stringList",
  expected: "a list of strings",
  read(v) {
    const list = readStringList(v);
    return list && new Set(list);
  },
};

/** A bare name of a declaration of one kind; the checker reports an undeclared one. */
const declRef = (tag: "schemaRef" | "modelRef" | "datasourceRef", noun: string): ValueKind<string> => ({
  tag,
  expected: `${withArticle(noun)} name`,
  read: readString,
});

export const schemaRef = declRef("schemaRef", "schema");
export const modelRef = declRef("modelRef", "model");
export const datasourceRef = declRef("datasourceRef", "datasource");

/** An agent's `tools`: names of declared tools, queries or commands. */
export const toolList: ValueKind<readonly string[]> = { tag: "toolList", expected: "a list of tool names", read: readStringList };

/** An agent's `handoffs` (issue #27 §2): bare names of declared agents. */
export const agentList: ValueKind<readonly string[]> = { tag: "agentList", expected: "a list of agent names", read: readStringList };

/**
 * A tool's `approval`: `true` / `false`, or the bare name of a schema whose value the
 * approver supplies (the handler's `ctx.approval`). The runtime gets the boolean or the name.
 */
export const approvalSpec: ValueKind<boolean | string> = {
  tag: "approvalSpec",
  expected: "true, false or a schema name",
  read: (v) => (typeof lit(v) === "boolean" ? (lit(v) as boolean) : v.kind === "Path" && v.parts.length === 1 ? v.parts[0] : undefined),
};

/** A JSON value written in source: literals, lists and objects of them (no names). */
export type ConstJson = string | number | boolean | null | ConstJson[] | { [key: string]: ConstJson };

/** Whether a value is a constant all the way down: a bare name (`Path`) is not. */
function isConstant(v: ConfigValue): boolean {
  if (v.kind === "Lit") return true;
  if (v.kind === "List") return v.items.every(isConstant);
  if (v.kind === "Obj") return v.entries.every((e) => isConstant(e.value));
  return false;
}

/** A constant value as JSON; keys land as own data properties (a `__proto__` key stays a key). */
function constJson(v: ConfigValue): ConstJson {
  if (v.kind === "Lit") return v.value;
  if (v.kind === "List") return v.items.map(constJson);
  const out: { [key: string]: ConstJson } = {};
  if (v.kind === "Obj") for (const e of v.entries) Object.defineProperty(out, e.key, { value: constJson(e.value), enumerable: true, writable: true, configurable: true });
  return out;
}

/** A constant object (`provider_options: { … }`): literals, lists and objects, no names. */
export const constObject: ValueKind<{ readonly [key: string]: ConstJson }> = strictKind("constObject", "a constant object ({ key: value, … })", (v) => constJson(v) as { [key: string]: ConstJson });
