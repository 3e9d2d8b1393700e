/**
 * The built-in Postgres bridge (spec §12, extension): `url: "postgres://…"` or
 * `url_env: "DATABASE_URL"` runs statements with Bun's own client (`Bun.sql`), no tool
 * module and no new dependency. It connects on the first statement, not at startup.
 *
 * Parameters go to the server as `$1…$n` bind values (`sql.unsafe(text, params)` is the
 * driver's call for SQL that is not a tagged template; the text is still never spliced).
 * A plain object parameter is sent as JSON text (for `jsonb`); arrays stay Postgres arrays.
 * The AbortSignal cancels the running statement on the server. `int8` (COUNT(*)) comes
 * back as a bigint and becomes a number in `row-values.ts`.
 */
import type { SQL } from "bun";
import type { Bridge, StatementKind } from "./bridge";

const toPostgresValue = (v: unknown): unknown =>
  v === undefined ? null : v !== null && typeof v === "object" && !Array.isArray(v) ? JSON.stringify(v) : v;

interface PgResult extends Array<unknown> {
  count?: number | null;
  command?: string;
}

/** `secrets`: the URL setting's (the URL, its password raw and decoded), blanked from every message. */
export function postgresBridge(url: string, secrets: readonly string[]): Bridge {
  let client: SQL | undefined;
  return {
    origin: "postgres",
    secrets: [...new Set([url, ...secrets])],
    async run(sql: string, params: unknown[], signal: AbortSignal, kind: StatementKind): Promise<unknown> {
      signal.throwIfAborted();
      client ??= new Bun.SQL({ url, bigint: true });
      const pending = client.unsafe(sql, params.map(toPostgresValue));
      // A block body on purpose: a listener that *returns* the cancelled query (a thenable)
      // makes Bun report its rejection as unhandled and exit 1.
      const cancel = () => {
        pending.cancel();
      };
      signal.addEventListener("abort", cancel, { once: true });
      try {
        const rows = (await pending) as PgResult;
        if (rows.length === 0 && kind === "command" && rows.command !== "SELECT") return [{ rows_affected: rows.count ?? 0 }];
        return Array.from(rows);
      } finally {
        signal.removeEventListener("abort", cancel);
      }
    },
    async close() {
      const c = client;
      client = undefined;
      await c?.close();
    },
  };
}
