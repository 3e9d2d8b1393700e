/**
 * The kinds of value a `key: value` entry of a declaration block may hold. Each kind says
 * what it expects (for the generic "Key 'k' in tool 'x' must be …." message), checks a
 * value (kinds that name declarations report unknown names with their own messages), and
 * reads it into the runtime value its type parameter names — so a key's kind is at once
 * what the checker accepts and what the runtime gets (`keys/key-spec.ts` reads a block).
 *
 * The readers are tolerant, as the checker has already rejected ill-typed values: a value
 * the kind refuses reads as `undefined`, and the key keeps its default.
 */
import type { ConfigValue, Decl } from "../syntax/ast";
import type { CheckContext } from "./context";
import { messages, oneOf as oneOfText, type CheckMessage } from "./messages";
import { declHints } from "./suggestions";
import { KIND_NOUN, MODEL_CALLABLE_KINDS, withArticle } from "./symbols";

export interface ValueKind<T = unknown> {
  expected: string;
  /** Returns false for the generic message; reports its own messages itself. */
  check(value: ConfigValue, ctx: CheckContext): boolean;
  /** The runtime value; `undefined` when the value is not of this kind. */
  read(value: ConfigValue): T | undefined;
}

const lit = (v: ConfigValue) => (v.kind === "Lit" ? v.value : undefined);
const singleName = (v: ConfigValue) => (v.kind === "Path" && v.parts.length === 1 ? v.parts[0] : undefined);
/** What an agent's `tools` may list: the model can call tools, queries and commands. */
const MODEL_CALLABLE = new Set<string>(MODEL_CALLABLE_KINDS);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
/** Reads what `check` accepts with `read`, else undefined (kinds whose check needs no context). */
const litKind = <T>(expected: string, accepts: (v: ConfigValue) => boolean, read: (v: ConfigValue) => T | undefined): ValueKind<T> => ({
  expected,
  check: accepts,
  read: (v) => (accepts(v) ? read(v) : undefined),
});

export const str: ValueKind<string> = { expected: "a string", check: (v) => typeof lit(v) === "string", read: readString };
export const bool: ValueKind<boolean> = litKind("true or false", (v) => typeof lit(v) === "boolean", (v) => lit(v) as boolean);
export const num: ValueKind<number> = litKind("a number", (v) => typeof lit(v) === "number", readNumber);
/** A price or other amount that cannot be negative. */
export const nonNegative: ValueKind<number> = litKind("a number >= 0", (v) => typeof lit(v) === "number" && (lit(v) as number) >= 0, readNumber);

/** An integer (ms, counts); one below `min` reads as undefined, so the key keeps its default. */
export const int = (min?: number): ValueKind<number> =>
  litKind(
    min === undefined ? "an integer" : `an integer >= ${min}`,
    (v) => {
      const n = lit(v);
      return typeof n === "number" && Number.isInteger(n) && (min === undefined || n >= min);
    },
    readNumber,
  );

/** One of a few strings; the runtime gets the union of them. */
export const oneOf = <const V extends string>(...values: V[]): ValueKind<V> =>
  litKind(oneOfText(values), (v) => values.includes(lit(v) as V), (v) => lit(v) as V);

export const envName: ValueKind<string> = litKind(
  "an environment variable name",
  (v) => {
    const s = lit(v);
    return typeof s === "string" && ENV_NAME.test(s);
  },
  readString,
);

/**
 * A field path into a tool's input: `request_id`, `input.request_id` (never an expression).
 * The runtime gets the path inside the validated input: `input.request_id` and `request_id`
 * name the same field.
 */
export const fieldPath: ValueKind<readonly string[]> = {
  expected: "a parameter path",
  check(v) {
    const s = lit(v);
    return v.kind === "Path" || (typeof s === "string" && /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(s));
  },
  read(v) {
    const s = lit(v);
    const path = v.kind === "Path" ? v.parts : typeof s === "string" ? s.split(".") : undefined;
    return path && path.length > 1 && path[0] === "input" ? path.slice(1) : path;
  },
};

export const stringList: ValueKind<readonly string[]> = {
  expected: "a list of strings",
  check: (v) => v.kind === "List" && v.items.every((i) => typeof lit(i) === "string"),
  read: readStringList,
};

/** A list of strings the runtime asks "is x in it?" of (`tool_scopes`, `tool_contexts`). */
export const stringSet: ValueKind<ReadonlySet<string>> = {
  ...stringList,
  read(v) {
    const list = readStringList(v);
    return list && new Set(list);
  },
};

/** A bare name of a declaration of one kind; an undeclared name gets its own message. */
function declRef(noun: "schema" | "model" | "datasource", unknown: (name: string) => CheckMessage, kinds: Decl["kind"][]): ValueKind<string> {
  return {
    expected: `${withArticle(noun)} name`,
    read: readString,
    check(v, ctx) {
      const name = singleName(v);
      if (name === undefined) return false;
      const decl = ctx.symbols.byName.get(name);
      if (!decl) ctx.report(unknown(name), v.span, { hints: declHints(ctx, kinds, name) });
      else if (KIND_NOUN[decl.kind] !== noun) ctx.report(messages.wrongKind(name, withArticle(KIND_NOUN[decl.kind]), noun), v.span);
      return true;
    },
  };
}

export const schemaRef = declRef("schema", messages.unknownSchema, ["Schema", "Union"]);
export const modelRef = declRef("model", messages.unknownModel, ["Model"]);
export const datasourceRef = declRef("datasource", messages.unknownDatasource, ["Datasource"]);

/** An agent's `tools`: names of declared tools, queries or commands. */
export const toolList: ValueKind<readonly string[]> = {
  expected: "a list of tool names",
  read: readStringList,
  check(v, ctx) {
    if (v.kind !== "List") return false;
    const seen = new Set<string>();
    for (const item of v.items) {
      const name = singleName(item);
      if (name === undefined) return false;
      const decl = ctx.symbols.byName.get(name);
      if (!decl) ctx.report(messages.unknownTool(name), item.span, { hints: declHints(ctx, MODEL_CALLABLE_KINDS, name) });
      else if (!MODEL_CALLABLE.has(decl.kind)) ctx.report(messages.wrongKind(name, withArticle(KIND_NOUN[decl.kind]), "tool"), item.span);
      else if (seen.has(name)) ctx.report(messages.duplicateMember("tool", name, "tools"), item.span);
      seen.add(name);
    }
    return true;
  },
};
