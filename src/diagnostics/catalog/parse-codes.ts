/**
 * E01xx: syntax errors, reported by `src/syntax/` before anything is checked. The codes
 * for mistakes newcomers make (operators and quotes from other languages) come with a
 * hint naming the Luma spelling; see `src/syntax/syntax-hints.ts`.
 */
import type { CatalogEntry } from "./catalog-entry";

export const PARSE_CODES = {
  syntax: "E0101",
  unterminatedString: "E0102",
  unterminatedComment: "E0103",
  foreignOperator: "E0104",
  singleQuotes: "E0105",
  nesting: "E0106",
  unclosedInterpolation: "E0107",
  assignInCondition: "E0108",
  foreignKeyword: "E0109",
  misspeltKeyword: "E0110",
} as const;

export const parseCodes: CatalogEntry[] = [
  {
    code: PARSE_CODES.syntax,
    title: "Syntax error",
    explanation:
      "The text at the caret does not fit the grammar. The message lists what could come there instead; inside a string interpolation `{…}` it says so.",
    example: "x = f(1 2)",
  },
  {
    code: PARSE_CODES.unterminatedString,
    title: "Unterminated string",
    explanation:
      "A string literal opened at the caret is never closed. Strings may span lines, so the rest of the file became part of it: add the closing `\"`.",
    example: 'x = "hello',
  },
  {
    code: PARSE_CODES.unterminatedComment,
    title: "Unterminated block comment",
    explanation: "A `/*` comment opened at the caret has no `*/`, so it runs to the end of the file.",
    example: "x = 1 /* never closed",
  },
  {
    code: PARSE_CODES.foreignOperator,
    title: "An operator from another language",
    explanation: "Luma spells the logical operators as words: `and` for `&&`, `or` for `||`, `not` for `!` (`!=` is still not-equal).",
    example: "if a && b {\n  print(1)\n}",
  },
  {
    code: PARSE_CODES.singleQuotes,
    title: "Single-quoted string",
    explanation: "Strings are written in double quotes only: `\"text\"`. A `'` is not a Luma character outside strings.",
    example: "x = 'hello'",
  },
  {
    code: PARSE_CODES.nesting,
    title: "Nesting deeper than 100 levels",
    explanation:
      "Brackets, blocks, `ask`, string interpolations, runs of prefix operators and chains of `.x` / `[i]` / `(args)` nest; beyond 100 levels a program is rejected at the place that crosses the limit rather than exhausting the stack of a later stage. Flat chains such as `a + b + c + …` are not nesting and have no limit. Split the expression with intermediate variables.",
    example: `x = ${"[".repeat(101)}1${"]".repeat(101)}`,
  },
  {
    code: PARSE_CODES.unclosedInterpolation,
    title: "A `{` in a string that is not an interpolation",
    explanation:
      "In a string, `{expr}` interpolates. A `{` with no `}` before the string ends, or a `{…}` whose inside is not an expression, is an error; write `\\{` (and `\\}`) for a literal brace, as in a prompt that shows JSON.",
    example: 'prompt = "Reply as JSON: { text: string }"',
  },
  {
    code: PARSE_CODES.assignInCondition,
    title: "`=` where a comparison belongs",
    explanation: "`=` assigns and is a statement of its own; comparing is `==` (and `!=`, `<`, `<=`, `>`, `>=`).",
    example: "if x = 1 {\n  print(x)\n}",
  },
  {
    code: PARSE_CODES.foreignKeyword,
    title: "A keyword from another language",
    explanation:
      "Functions are declared with `fn name(param: Type) -> Type { … }` (not `func`, `function` or `def`).",
    example: "func greet(name: string) {\n  print(name)\n}",
  },
  {
    code: PARSE_CODES.misspeltKeyword,
    title: "A misspelt declaration keyword",
    explanation:
      "A top-level line that starts with a word one slip away from `schema`, `tool`, `agent`, `model`, `datasource`, `query` or `command`, followed by a name and `{`, `(` or `=`, is a declaration with its keyword misspelt. It is reported once, with the keyword meant, instead of as unknown names.",
    example: "shema Answer {\n  text: string\n}",
  },
];
