/**
 * The language's words, as the grammar has them (grammar.ohm's `keyword` rule, held equal
 * by tests/docs/language-lists.test.ts): one list that the fast parser, the misspelt-keyword
 * hints, the editor's completion and rename all read, so a new keyword is one line here and
 * one in the grammar.
 */

/** The grammar's `keyword` rule: these words are never an `ident`. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  "agent", "ask", "and", "break", "by", "catch", "command", "continue", "datasource", "else", "enum",
  "fn", "for", "false", "if", "in", "model", "needs", "null", "not",
  "or", "query", "return", "schema", "tool", "try", "tagged", "true", "using", "while",
]);

/** The words that open a top-level declaration. */
export const DECLARATION_KEYWORDS: readonly string[] = ["schema", "tool", "agent", "model", "fn", "datasource", "query", "command"];

/** The primitive type names (`primType`): names, not keywords, but never a schema's. */
export const PRIMITIVE_TYPES: readonly string[] = ["string", "int", "float", "bool", "any"];
