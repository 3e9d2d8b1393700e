/**
 * The words the language uses for its own declarations: what a message, a key's expected
 * value or a hint calls a declaration kind ("'X' is a tool, not a schema."), which kinds a
 * model may call, and the "a/an" and "x, y or z" phrasing every message shares. Plain data
 * and text: the checker's messages, the key tables' expected values and the runtime all
 * read them, so they live below all three.
 */
import type { Decl } from "../syntax/ast";

/** The word a message uses for a declaration kind ("Duplicate function 'f'."). */
export const KIND_NOUN: Record<Decl["kind"], string> = {
  Schema: "schema",
  Union: "schema",
  Tool: "tool",
  Model: "model",
  Agent: "agent",
  Fn: "function",
  Datasource: "datasource",
  Query: "query",
  Command: "command",
};

/** What an agent's `tools` and `using tool` may name: the model can call tools, queries and commands. */
export const MODEL_CALLABLE_KINDS: readonly Decl["kind"][] = ["Tool", "Query", "Command"];

/** With its article, for "'X' is a tool, not a schema." */
export const withArticle = (noun: string): string => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** `"a", "b" or "c"` — for messages that list the allowed string values. */
export function oneOfText(values: readonly string[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}
