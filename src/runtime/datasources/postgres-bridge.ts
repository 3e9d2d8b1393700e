/**
 * The built-in Postgres bridge (spec §12, extension): `url: "postgres://…"` or
 * `url_env: "DATABASE_URL"` runs statements with Bun's own client (`Bun.sql`), no tool
 * module and no new dependency. It connects on the first statement, not at startup.
 *
 * Parameters go to the server as `$1…$n` bind values (`sql.unsafe(text, params)` is the
 * driver's call for SQL that is not a tagged template; the text is still never spliced).
 * A plain object parameter is sent as JSON text (for `jsonb`); arrays stay Postgres arrays.
 * The AbortSignal cancels the running statement on the server. `int8` (COUNT(*)) comes
 * back as a bigint, kept exact until row validation (validate-rows.ts) decides.
 *
 * Lock waits are bounded by the call's deadline (signal-deadline.ts): each statement runs on
 * a reserved connection right after `set_config('lock_timeout', …)` (the deadline less a
 * margin) and `statement_timeout` (the deadline plus slack, a server-side backstop should
 * the cancel request be lost), one round trip before the statement (sent together, Bun's
 * client ran the statement before the settings took hold). A row locked by another
 * transaction then fails as 55P03 — "locked", retryable (driver-error-kinds.ts) — before
 * the deadline makes it a bare TOOL_TIMEOUT. The margin is a fifth of the time left (at most
 * 1 s): it must cover the settings' round trip, the answer's way back and a busy process
 * waking late, and a fixed 100 ms did not on a loaded machine (the deadline's timer won).
 * The settings are the session's, and every statement of this client sets them again, so
 * none leaks into the next.
 */
import type { SQL } from "bun";
import { timeLeft } from "../tools/steps/signal-deadline";
import type { Bridge, StatementKind } from "./bridge";

const LOCK_MARGIN_MAX_MS = 1000;
const STATEMENT_SLACK_MS = 1000;
const SET_TIMEOUTS = "SELECT set_config('lock_timeout', $1, false), set_config('statement_timeout', $2, false)";

const toPostgresValue = (v: unknown): unknown =>
  v === undefined ? null : v !== null && typeof v === "object" && !Array.isArray(v) ? JSON.stringify(v) : v;

interface PgResult extends Array<unknown> {
  count?: number | null;
  command?: string;
}

async function runOn(client: SQL, sql: string, params: unknown[], signal: AbortSignal, kind: StatementKind): Promise<unknown> {
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
      if (timeLeft(signal) === undefined) return await runOn(client, sql, params, signal, kind);
      const conn = await client.reserve();
      try {
        // Read after the reserve: connecting (TLS, auth) already spent part of the deadline.
        const left = timeLeft(signal)!;
        signal.throwIfAborted();
        const lockMs = Math.max(1, Math.floor(left - Math.min(LOCK_MARGIN_MAX_MS, left / 5)));
        await conn.unsafe(SET_TIMEOUTS, [String(lockMs), String(Math.ceil(left) + STATEMENT_SLACK_MS)]);
        return await runOn(conn, sql, params, signal, kind);
      } finally {
        conn.release();
      }
    },
    async close() {
      const c = client;
      client = undefined;
      await c?.close();
    },
  };
}
