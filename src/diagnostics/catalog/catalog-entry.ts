/**
 * One entry of the diagnostic catalog: a stable code, a one-line title, and the long
 * explanation `luma explain CODE` prints (with an example that triggers it).
 *
 * Codes are grouped by the stage that reports them, one file per stage:
 *   E01xx parse (syntax)        parse-codes.ts
 *   E02xx check (declarations)  check-codes.ts
 *   E03xx static types          type-codes.ts
 *   E04xx configuration         config-codes.ts
 *   E05xx tool modules, policy  module-codes.ts
 *   E06xx runtime start-up      startup-codes.ts
 *   E07xx luma build            build-codes.ts
 *   E08xx MCP                   mcp-codes.ts
 *   E09xx durable runs          journal-codes.ts
 * Runtime error codes of the spec (TOOL_TIMEOUT, VALUE_INVALID…) are catalog entries of
 * their own in runtime-codes.ts: they are already stable and printed as `[CODE]`.
 * A code, once published, never changes meaning; a retired code stays in its file.
 */
export interface CatalogEntry {
  code: string;
  title: string;
  explanation: string;
  /** A short `.luma` (or config) snippet that triggers the diagnostic. */
  example?: string;
}
