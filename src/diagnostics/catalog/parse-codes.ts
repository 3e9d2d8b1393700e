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
  secondReplay: "E0111",
  interpolatedPlainString: "E0112",
  internalParser: "E0113",
} as const;

const PARSE_ENTRIES = [
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
      "In a string, `{expr}` interpolates. A `{` with no `}` before the string ends, or a `{…}` whose inside is not an expression, is an error; write `\\{` (and `\\}`) for a literal brace, as in a prompt that shows JSON. Inside a block (a test's `mock` list or `assert` message, a `replay` path, a function body) the `{` of `\"{\\\"a\\\": 1}\"` can be closed by the block's own `}`, leaving the string open to the end of the file: that is reported here too, at the `{`, not as E0102.",
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
  {
    code: PARSE_CODES.secondReplay,
    title: "A second `replay`",
    explanation:
      "`luma test` replays one cassette per scope: a file names at most one at its top level (for all its tests), and a `test` block at most one of its own. Keep one `replay` line there; a test's own cassette replaces the file's.",
    example: 'test "lookup" {\n  replay "a.json"\n  replay "b.json"\n}',
  },
  {
    code: PARSE_CODES.interpolatedPlainString,
    title: "A `{…}` in a string that must be plain",
    explanation:
      "A test's name and a `replay` cassette path are read before anything runs, so they are plain strings: a `{expr}` in them has no value to take. Write the text out, or `\\{` for a literal brace.",
    example: 'name = "lookup"\ntest "{name} works" {\n  assert true\n}',
  },
  {
    code: PARSE_CODES.internalParser,
    title: "Internal parser error",
    explanation:
      "The parser failed in a way it has no message for: a bug in Luma, not in the program. The message carries what went wrong; please report it with the file that caused it.",
    example: "(no program is meant to produce it)",
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type ParseCode = (typeof PARSE_ENTRIES)[number]["code"];

export const parseCodes: CatalogEntry[] = [...PARSE_ENTRIES];
