/**
 * One entry of the diagnostic catalog: a stable code, a one-line title, and the long
 * explanation `luma explain CODE` prints (with an example that triggers it).
 *
 * Codes are grouped by the stage that reports them, one file per stage:
 *   E01xx parse (syntax)        parse-codes.ts
 *   E02xx check rules           check-codes.ts (check-declaration-codes.ts, check-statement-codes.ts)
 *   E03xx static types          type-codes.ts
 *   E04xx configuration         config-codes.ts
 *   E05xx tool modules, policy  module-codes.ts
 *   E06xx runtime start-up      startup-codes.ts
 *   E07xx luma build            build-codes.ts
 *   E08xx MCP                   mcp-codes.ts
 *   E09xx durable runs          journal-codes.ts
 *   E10xx imports between files import-codes.ts
 *   E11xx check rules, many agents  check-multi-agent-codes.ts (joined in check-codes.ts)
 *   E12xx check rules of `parallel` (issue #27)   check-parallel-codes.ts (joined in check-codes.ts)
 *   E1008–E1009, E13xx  luma:std (imports of built-in modules, the "std" config)  std-codes.ts
 *   E14xx `luma eval` (issue #31): its check rules (joined in check-codes.ts) and its own errors   eval-codes.ts
 * The checker's entries (E02xx, E03xx, E11xx, E12xx) are `WordedEntry`s: they carry the text builder the
 * rule reports with, so a diagnostic's code, wording and explanation are one record.
 * Runtime error codes of the spec (TOOL_TIMEOUT, VALUE_INVALID…) are catalog entries of
 * their own in runtime-codes.ts: they are already stable and printed as `[CODE]`.
 * A code, once published, never changes meaning; a retired code stays in its file.
 */
export interface CatalogEntry<Code extends string = string> {
  code: Code;
  title: string;
  explanation: string;
  /** A short `.luma` (or config) snippet that triggers the diagnostic. */
  example?: string;
  /** No longer reported (the limit it named was lifted): kept so the code is never reused; no example triggers it. */
  retired?: true;
}

/** How an entry words a hint or a variant of its message: fixed text or a builder. */
export type Wording = string | ((...args: never[]) => string);

/**
 * A catalog entry that also words its diagnostic: `text` builds the message from typed
 * parameters (`text: (name: string) => \`Unknown tool '${name}'.\``), `hints` and
 * `variants` the rest of what the rule says. `exact`: the spec words the text byte for
 * byte, so nobody rewords it.
 */
export interface WordedEntry extends CatalogEntry {
  text: (...args: never[]) => string;
  exact?: true;
  hints?: Record<string, Wording>;
  variants?: Record<string, Wording>;
}
