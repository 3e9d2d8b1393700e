/**
 * A datasource's bridge as the statement runner sees it (spec §12). A module bridge is the
 * user's `(sql, params, signal) => rows`; the built-in SQLite and Postgres bridges also get
 * the statement's kind, so a command that returns no rows can answer `{ rows_affected }`.
 */
export type StatementKind = "query" | "command";

export interface Bridge {
  /** Where it comes from, for messages: a tool module, or a built-in client. */
  readonly origin: "module" | "sqlite" | "postgres";
  /** Values to blank out of every message (a password; a URL read from the environment). */
  readonly secrets: readonly string[];
  run(sql: string, params: unknown[], signal: AbortSignal, kind: StatementKind): unknown;
  /** Releases connections when the program ends; never opens one. */
  close(): Promise<void>;
}
