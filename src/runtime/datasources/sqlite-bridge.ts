/**
 * The built-in SQLite bridge (spec §12, extension): `url: "sqlite:PATH"` runs statements
 * with `bun:sqlite`, no tool module and no server. The file is opened on the first
 * statement, not at startup, and prepared statements are cached by SQL text.
 *
 * Parameters are bound, never spliced. SQLite numbers `$N` placeholders by first
 * appearance, so `… $2 … $1` bound positionally would swap them: SQL written with `$N` is
 * bound by name (`{ $1, $2, … }`); `?` and `?N` placeholders are bound by position.
 * SQLite has no booleans or JSON: `true`/`false` become 1/0, objects and arrays JSON text.
 *
 * Integers are read as bigints (`safeIntegers`), so an INTEGER beyond 2^53 reaches row
 * validation exact instead of rounded to its neighbour (validate-rows.ts decides).
 *
 * A locked database (SQLITE_BUSY) is waited for, not failed at once — but not with
 * SQLite's `busy_timeout`, which sleeps inside the synchronous call and would freeze every
 * other call of the program. The bridge retries on timers instead, up to the call's
 * deadline (signal-deadline.ts) less a small margin, and the AbortSignal stops the wait;
 * then the busy error goes out, which the runner words as "database is locked",
 * retryable. A statement that got SQLITE_BUSY did not run (autocommit), so trying it again
 * is safe.
 */
import { Database, type SQLQueryBindings, type Statement } from "bun:sqlite";
import { timeLeft } from "../tools/steps/signal-deadline";
import type { Bridge, StatementKind } from "./bridge";

const DOLLAR_PLACEHOLDER = /\$\d/;
/** The last wait ends this long before the deadline, so the busy error, not TOOL_TIMEOUT, is the answer. */
const DEADLINE_MARGIN_MS = 10;
const MAX_POLL_MS = 25;

const toSqliteValue = (v: unknown): SQLQueryBindings => {
  if (v === null || v === undefined) return null;
  if (typeof v === "object") return JSON.stringify(v);
  return v as SQLQueryBindings;
};

const isBusy = (e: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((e as { code?: unknown } | null)?.code));

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });

function execute(stmt: Statement, sql: string, params: unknown[], kind: StatementKind): unknown {
  const values = params.map(toSqliteValue);
  const run = DOLLAR_PLACEHOLDER.test(sql)
    ? (f: (...a: SQLQueryBindings[]) => unknown) => f(Object.fromEntries(values.map((v, i) => [`$${i + 1}`, v])) as SQLQueryBindings)
    : (f: (...a: SQLQueryBindings[]) => unknown) => f(...values);
  if (stmt.columnNames.length > 0) return run((...a) => stmt.all(...a));
  const changes = (run((...a) => stmt.run(...a)) as { changes: number | bigint }).changes;
  return kind === "command" ? [{ rows_affected: Number(changes) }] : [];
}

/** `create`: the URL asked for `?mode=rwc`; otherwise startup made sure the file exists. */
export function sqliteBridge(path: string, readonly: boolean, create: boolean): Bridge {
  let db: Database | undefined;
  const open = (): Database => {
    db ??= readonly
      ? new Database(path, { readonly: true, safeIntegers: true })
      : new Database(path, { create: create || path === ":memory:", readwrite: true, safeIntegers: true });
    return db;
  };
  return {
    origin: "sqlite",
    secrets: [],
    run(sql: string, params: unknown[], signal: AbortSignal, kind: StatementKind): unknown {
      // A synchronous driver cannot be interrupted; it can still refuse to start late.
      signal.throwIfAborted();
      try {
        return execute(open().query(sql), sql, params, kind);
      } catch (e) {
        if (!isBusy(e)) throw e;
        return waitForLock(() => execute(open().query(sql), sql, params, kind), signal, e);
      }
    },
    async close() {
      db?.close();
      db = undefined;
    },
  };
}

/** Tries again on short timers while the deadline allows; then the last busy error. */
async function waitForLock(attempt: () => unknown, signal: AbortSignal, first: unknown): Promise<unknown> {
  let last = first;
  for (let delay = 1; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
    const left = (timeLeft(signal) ?? 0) - DEADLINE_MARGIN_MS;
    if (left <= 0) throw last;
    await sleep(Math.min(delay, left), signal);
    try {
      return attempt();
    } catch (e) {
      if (!isBusy(e)) throw e;
      last = e;
    }
  }
}
