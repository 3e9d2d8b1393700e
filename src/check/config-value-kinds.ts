/**
 * The kinds of value a `key: value` entry of a declaration block may hold. Each kind says
 * what it expects (for the generic "Key 'k' in tool 'x' must be …." message) and checks a
 * value; kinds that name declarations report unknown names with their own messages.
 */
import type { ConfigValue, Decl } from "../syntax/ast";
import type { CheckContext } from "./context";
import { messages, oneOf as oneOfText, type CheckMessage } from "./messages";
import { declHints } from "./suggestions";
import { KIND_NOUN, MODEL_CALLABLE_KINDS, withArticle } from "./symbols";

export interface ValueKind {
  expected: string;
  /** Returns false for the generic message; reports its own messages itself. */
  check(value: ConfigValue, ctx: CheckContext): boolean;
}

const lit = (v: ConfigValue) => (v.kind === "Lit" ? v.value : undefined);
const singleName = (v: ConfigValue) => (v.kind === "Path" && v.parts.length === 1 ? v.parts[0] : undefined);
/** What an agent's `tools` may list: the model can call tools, queries and commands. */
const MODEL_CALLABLE = new Set<string>(MODEL_CALLABLE_KINDS);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const str: ValueKind = { expected: "a string", check: (v) => typeof lit(v) === "string" };
export const bool: ValueKind = { expected: "true or false", check: (v) => typeof lit(v) === "boolean" };
export const num: ValueKind = { expected: "a number", check: (v) => typeof lit(v) === "number" };
/** A price or other amount that cannot be negative. */
export const nonNegative: ValueKind = { expected: "a number >= 0", check: (v) => typeof lit(v) === "number" && (lit(v) as number) >= 0 };

export const int = (min?: number): ValueKind => ({
  expected: min === undefined ? "an integer" : `an integer >= ${min}`,
  check(v) {
    const n = lit(v);
    return typeof n === "number" && Number.isInteger(n) && (min === undefined || n >= min);
  },
});

export const oneOf = (...values: string[]): ValueKind => ({
  expected: oneOfText(values),
  check: (v) => values.includes(lit(v) as string),
});

export const envName: ValueKind = {
  expected: "an environment variable name",
  check(v) {
    const s = lit(v);
    return typeof s === "string" && ENV_NAME.test(s);
  },
};

/** A field path into a tool's input: `request_id`, `input.request_id` (never an expression). */
export const fieldPath: ValueKind = {
  expected: "a parameter path",
  check(v) {
    const s = lit(v);
    return v.kind === "Path" || (typeof s === "string" && /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(s));
  },
};

export const stringList: ValueKind = {
  expected: "a list of strings",
  check: (v) => v.kind === "List" && v.items.every((i) => typeof lit(i) === "string"),
};

/** A bare name of a declaration of one kind; an undeclared name gets its own message. */
function declRef(noun: "schema" | "model" | "datasource", unknown: (name: string) => CheckMessage, kinds: Decl["kind"][]): ValueKind {
  return {
    expected: `${withArticle(noun)} name`,
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
export const toolList: ValueKind = {
  expected: "a list of tool names",
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
